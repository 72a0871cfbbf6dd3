import Foundation

extension ManagedObjectContext {
    /// Runs a persistent history request against the store (Core Data's `execute(_:)` with an
    /// `NSPersistentHistoryChangeRequest`): a fetch reads the store (not this context's pending
    /// changes; in its query generation, when it is pinned to one), a purge writes it.
    ///
    /// ```swift
    /// let result = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token))
    /// for transaction in result.transactions ?? [] { … }
    /// ```
    @discardableResult
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        checkQueue()
        return try store().execute(request, in: queryGeneration)
    }
}
