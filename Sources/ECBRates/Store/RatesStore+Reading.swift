import EurofxrefFeed
import Foundation
import ManagedStore

/// A store's persistent history token: where a watcher or a cache stands in the store's
/// history (`watch --since`, an HTTP `ETag`).
public typealias HistoryToken = PersistentHistoryToken

extension RatesStore {
    /// Opens the store at `url` for queries: read-only (a query never writes, so it works on a
    /// read-only store, and beside an import); a missing store is a ``NoStoreError`` that says
    /// what to do, and nothing is created.
    ///
    /// ```swift
    /// let store = try RatesStore.forQueries(at: RatesStore.defaultURL())
    /// let usd = try await store.read { try $0.rates(["USD"], on: nil) }
    /// ```
    public static func forQueries(at url: URL, observingOtherProcesses: Bool = false) throws -> RatesStore {
        guard FileManager.default.fileExists(atPath: url.path) else { throw NoStoreError(path: url.path) }
        return try RatesStore(url: url, readOnly: true, observingOtherProcesses: observingOtherProcesses)
    }

    /// Pins the main context to the store's current query generation, so that an answer read
    /// in many queries (a series, an export) comes from one state of the store, whatever an
    /// import in another process commits meanwhile.
    public func pinCurrentQueryGeneration() throws {
        let view = viewContext
        try view.performAndWait { try view.setQueryGenerationFrom(.current) }
    }

    /// Runs `body` with queries on the store's main context, on its queue; "now" is the store's
    /// ``asOf`` moment, else `now`.
    public func read<T: Sendable>(
        now: Date = Date(), _ body: @escaping @Sendable (RateQueries) throws -> T
    ) async throws -> T {
        let view = viewContext
        let moment = asOf ?? now
        return try await view.perform { () throws -> T in try body(RateQueries(context: view, now: { moment })) }
    }

    /// Runs `body` on the main context's queue (where a ``RateWatcher`` starts and stops).
    public func performOnMainContext<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await viewContext.perform(body)
    }

    /// The token of transaction `number` of this store's history (`watch --since 1234`).
    public func historyToken(transactionNumber number: Int64) -> HistoryToken {
        PersistentHistoryToken(
            transactionNumber: number,
            storeIdentifier: container.persistentStoreCoordinator.persistentStores[0].identifier)
    }
}
