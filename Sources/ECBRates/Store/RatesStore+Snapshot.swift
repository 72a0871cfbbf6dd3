import Foundation
import ManagedStore

extension RatesStore {
    /// Runs `body` at once, on a new context pinned to the store's current query generation:
    /// every query `body` makes sees one state of the store, whatever an import commits
    /// meanwhile, and calls from many threads read side by side (each on a read connection;
    /// none waits for an import). Returns the answer and the history token of the state it was
    /// read from, or nil for the token when a commit landed while the snapshot was being taken
    /// (the answer is whole, but no token names it: an HTTP cache must not keep it).
    ///
    /// ```swift
    /// let (usd, token) = try store.readSnapshot { try $0.rate("USD") }
    /// ```
    ///
    /// With `fixedConversionRates` false, the queries answer from the ECB's rates alone, as
    /// Frankfurter's API does: the currencies the euro replaced end with their last rate
    /// (``RateQueries/usesFixedConversionRates``).
    public func readSnapshot<T>(
        now: Date = Date(), fixedConversionRates: Bool = true, _ body: (RateQueries) throws -> T
    ) throws -> (
        value: T, token: HistoryToken?
    ) {
        let coordinator = container.persistentStoreCoordinator
        let context = container.newBackgroundContext()
        let moment = asOf ?? now
        return try context.performAndWait { () throws -> (T, HistoryToken?) in
            let before = try coordinator.currentPersistentHistoryToken()
            // A store as of a moment is in memory, private and never written after it is
            // built: it has one state, and no query generation to pin (Core Data's contexts
            // revert to unpinned on an in-memory store, too).
            if asOf == nil { try context.setQueryGenerationFrom(.current) }
            let queries = RateQueries(context: context, now: { moment })
            queries.usesFixedConversionRates = fixedConversionRates
            let value = try body(queries)
            let after = try coordinator.currentPersistentHistoryToken()
            return (value, before == after ? after : nil)
        }
    }

    /// The token of the store's current state: the last transaction in its persistent history.
    /// Any commit, by any process, changes it; so an answer read at a token is still the answer
    /// while the token is the same (the server's answer cache rests on this).
    public func currentHistoryToken() throws -> HistoryToken {
        try container.persistentStoreCoordinator.currentPersistentHistoryToken()
    }

    /// When the transaction of `token` was committed, from the store's history (nil for a
    /// store without one, or a transaction the history no longer keeps).
    public func commitDate(of token: HistoryToken) throws -> Date? {
        guard token.transactionNumber > 0 else { return nil }
        let previous = HistoryToken(
            transactionNumber: token.transactionNumber - 1, storeIdentifier: token.storeIdentifier)
        var request = PersistentHistoryChangeRequest.fetchHistory(after: previous)
        request.resultType = .transactionsOnly
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.execute(request).transactions?.first { $0.transactionNumber == token.transactionNumber }?
                .timestamp
        }
    }
}
