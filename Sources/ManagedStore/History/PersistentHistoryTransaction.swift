import Foundation

/// One save (or batch request) as the store's persistent history recorded it (Core Data's
/// `NSPersistentHistoryTransaction`): when, by whom, and what changed.
///
/// ```swift
/// let result = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken))
/// for transaction in result.transactions ?? [] where transaction.author != "front-end" {
///     viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
///     lastToken = transaction.token
/// }
/// ```
public struct PersistentHistoryTransaction: Sendable, Identifiable, CustomStringConvertible {
    /// The transaction's number in its store: increasing, never reused.
    public let transactionNumber: Int64
    /// When the transaction committed.
    public let timestamp: Date
    /// The saving context's ``ManagedObjectContext/transactionAuthor``.
    public let author: String?
    /// The saving context's ``ManagedObjectContext/name``.
    public let contextName: String?
    /// The ID of the process that saved, as text (Core Data's `processID`).
    public let processID: String
    /// The saving program's bundle identifier, else its name (`ecbrates`), as Core Data's
    /// `bundleID`; empty for a transaction recorded before ManagedStore kept it.
    public let bundleID: String
    /// The store's identifier.
    public let storeID: String
    /// The changes, in the order they were made; nil when the request asked for transactions only.
    public let changes: [PersistentHistoryChange]?

    /// The token just after this transaction: fetching history after it gives what came later.
    public var token: PersistentHistoryToken {
        PersistentHistoryToken(transactionNumber: transactionNumber, storeIdentifier: storeID)
    }

    public var id: Int64 { transactionNumber }

    /// This transaction with only `changes`.
    func with(changes: [PersistentHistoryChange]) -> PersistentHistoryTransaction {
        PersistentHistoryTransaction(
            transactionNumber: transactionNumber, timestamp: timestamp, author: author, contextName: contextName,
            processID: processID, bundleID: bundleID, storeID: storeID, changes: changes)
    }

    /// The transaction as save changes, for ``ManagedObjectContext/mergeChanges(fromContextDidSave:)-(ContextSaveChanges)``:
    /// IDs only, so merging reads the values of the objects the context holds from the store
    /// (or its query generation).
    public var contextSaveChanges: ContextSaveChanges { ContextSaveChanges(merging: [self]) }

    /// A notification that ``ManagedObjectContext/mergeChanges(fromContextDidSave:)-(Notification)``
    /// accepts, as Core Data's `objectIDNotification()`: a
    /// ``ManagedObjectContext/didSaveObjectIDsNotification`` carrying the transaction's object IDs.
    public func objectIDNotification() -> Notification {
        contextSaveChanges.objectIDsNotification(object: nil)
    }

    public var description: String {
        let who = [author.map { "author \($0)" }, contextName.map { "context \($0)" }].compactMap { $0 }.joined(
            separator: ", ")
        return
            "transaction \(transactionNumber) at \(timestamp.formatted(.iso8601))\(who.isEmpty ? "" : " (\(who))"): \(changes.map { "\($0.count) changes" } ?? "changes not fetched")"
    }
}
