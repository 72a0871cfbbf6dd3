import Foundation

/// A generation of a coordinator's stores held open for the contexts pinned to it: in each
/// store (but an in-memory one), a read transaction on a connection of its own. SQLite's WAL
/// mode keeps the pages that transaction sees until it ends, so every fetch, count and fault
/// through it reads the store as it was when it began, while writers commit beside it. (The WAL
/// cannot be checkpointed past a held generation, so it grows while one is held; it ends when
/// the last context moves off it.)
final class QueryGeneration: Sendable {
    /// One store's read transaction.
    final class Pin: Sendable {
        /// The connection, used by one read at a time (contexts sharing a token may be on
        /// different queues).
        private let connection: Locked<SQLiteConnection>
        let store: PersistentStore
        /// The store's last history transaction as of this generation (0 without history).
        let historyTransactionNumber: Int64

        init(connection: SQLiteConnection, store: PersistentStore) throws {
            try connection.execute("BEGIN")
            // A read transaction starts at its first read: make it now.
            _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
            historyTransactionNumber =
                try HistoryLog.exists(on: connection) ? HistoryLog.currentTransactionNumber(on: connection) : 0
            self.connection = Locked(connection)
            self.store = store
        }

        deinit {
            connection.withLock { connection in
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            }
        }

        /// Runs `body` on the generation's connection, inside its read transaction.
        func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
            try connection.withLock { try body($0) }
        }
    }

    /// The read transactions, one per file store, in ``SQLiteStore/lockOrder(_:_:)``'s order.
    let pins: [Pin]

    /// A generation of `stores` as they are now (nil when all are in memory, where a context
    /// cannot be pinned). No save through the coordinator commits while the stores are pinned
    /// (their writers are held, in the order saves take them), so that the generation never
    /// sees one store of a save without the other; another process's saves are not held.
    static func pinning(_ stores: [SQLiteStore]) throws -> QueryGeneration? {
        let files = stores.filter { !$0.inMemory }.sorted(by: SQLiteStore.lockOrder)
        guard !files.isEmpty else { return nil }
        if files.count == 1 { return QueryGeneration(pins: [try files[0].makeGeneration()]) }
        func pin(from index: Int) throws -> [Pin] {
            guard index < files.count else { return [] }
            return try files[index].holdingWriter { [try files[index].makeGeneration()] + (try pin(from: index + 1)) }
        }
        return QueryGeneration(pins: try pin(from: 0))
    }

    private init(pins: [Pin]) {
        self.pins = pins
    }

    /// The read transaction of `store`: nil for an in-memory store (not pinned); an error for
    /// a store added after the generation was made.
    func pin(for store: SQLiteStore) throws -> Pin? {
        if let pin = pins.first(where: { $0.store === store.persistentStore }) { return pin }
        if store.inMemory { return nil }
        throw ManagedStoreError.queryGenerationUnavailable(
            reason: "\(store.persistentStore) was added after the context was pinned: pin it again")
    }

    /// Whether the generation pins every file store of `stores` and no other.
    func covers(_ stores: [SQLiteStore]) -> Bool {
        let files = stores.filter { !$0.inMemory }
        return files.count == pins.count
            && files.allSatisfy { file in pins.contains { $0.store === file.persistentStore } }
    }
}
