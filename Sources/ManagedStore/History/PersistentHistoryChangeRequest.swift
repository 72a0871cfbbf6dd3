import Foundation

/// A request to fetch or purge a store's persistent history (Core Data's
/// `NSPersistentHistoryChangeRequest`), run with ``ManagedObjectContext/execute(_:)-(PersistentHistoryChangeRequest)``.
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let transactions = try context.execute(request).transactions ?? []
/// try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: Date.now.addingTimeInterval(-7 * 86_400)))
/// ```
///
/// The store must have been opened with ``PersistentStoreDescription/persistentHistoryTracking``.
public struct PersistentHistoryChangeRequest: Sendable {
    enum Operation: Sendable {
        case fetchAfterToken(PersistentHistoryToken?)
        case fetchAfterDate(Date)
        case fetchMatching(
            transactions: PersistentHistoryFetchRequest<PersistentHistoryTransaction>?,
            changes: PersistentHistoryFetchRequest<PersistentHistoryChange>?)
        case deleteThroughToken(PersistentHistoryToken?)
        case deleteBeforeDate(Date)
    }

    let operation: Operation
    /// The store the request reads or purges (Core Data's `affectedStores`), one; nil: the
    /// coordinator's only store. A request after a token reads the token's store.
    public var affectedStores: [PersistentStore]?
    /// What the request returns (default ``PersistentHistoryResultType/transactionsAndChanges``;
    /// a purge returns ``PersistentHistoryResultType/statusOnly`` or ``PersistentHistoryResultType/count``).
    public var resultType: PersistentHistoryResultType = .transactionsAndChanges

    /// The transactions committed after `token` (all of them for nil), oldest first. A token
    /// older than the history kept (purged since) is refused with
    /// ``ManagedStoreError/persistentHistoryTokenExpired(token:oldestKept:)``: what happened in
    /// between is no longer known, so the reader must start again from the store's contents.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> Self {
        Self(operation: .fetchAfterToken(token))
    }

    /// The transactions committed after `date`, oldest first.
    public static func fetchHistory(after date: Date) -> Self {
        Self(operation: .fetchAfterDate(date))
    }

    /// The transactions committed after `transaction`.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> Self {
        Self(operation: .fetchAfterToken(transaction?.token))
    }

    /// The transactions `fetchRequest` selects, oldest first, as Core Data's
    /// `fetchHistory(withFetch:)` with a transaction fetch request.
    public static func fetchHistory(
        withFetch fetchRequest: PersistentHistoryFetchRequest<PersistentHistoryTransaction>
    ) -> Self {
        Self(operation: .fetchMatching(transactions: fetchRequest, changes: nil))
    }

    /// The changes `fetchRequest` selects, in their transactions (each with those of its
    /// changes that match; a transaction with none is left out), oldest first, as Core Data's
    /// `fetchHistory(withFetch:)` with a change fetch request.
    public static func fetchHistory(
        withFetch fetchRequest: PersistentHistoryFetchRequest<PersistentHistoryChange>
    )
        -> Self
    {
        Self(operation: .fetchMatching(transactions: nil, changes: fetchRequest))
    }

    /// Purges the history up to and including `token`'s transaction (all of it for nil).
    public static func deleteHistory(before token: PersistentHistoryToken?) -> Self {
        var request = Self(operation: .deleteThroughToken(token))
        request.resultType = .statusOnly
        return request
    }

    /// Purges the transactions committed before `date`.
    public static func deleteHistory(before date: Date) -> Self {
        var request = Self(operation: .deleteBeforeDate(date))
        request.resultType = .statusOnly
        return request
    }

    /// Purges the history up to and including `transaction`.
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?) -> Self {
        deleteHistory(before: transaction?.token)
    }

    /// The token the request starts after or purges through, if it was made with one.
    public var token: PersistentHistoryToken? {
        switch operation {
        case .fetchAfterToken(let token), .deleteThroughToken(let token): return token
        case .fetchAfterDate, .fetchMatching, .deleteBeforeDate: return nil
        }
    }

    var isDeletion: Bool {
        switch operation {
        case .deleteThroughToken, .deleteBeforeDate: return true
        case .fetchAfterToken, .fetchAfterDate, .fetchMatching: return false
        }
    }
}

/// What a ``PersistentHistoryChangeRequest`` returns (Core Data's `NSPersistentHistoryResultType`).
public enum PersistentHistoryResultType: Sendable, Hashable {
    /// Whether it succeeded.
    case statusOnly
    /// The IDs of the changed objects.
    case objectIDs
    /// How many transactions it fetched or purged.
    case count
    /// The transactions, without their changes.
    case transactionsOnly
    /// The changes, without their transactions.
    case changesOnly
    /// The transactions with their changes.
    case transactionsAndChanges
}

/// The result of a ``PersistentHistoryChangeRequest`` (Core Data's `NSPersistentHistoryResult`),
/// in the form its ``PersistentHistoryChangeRequest/resultType`` asked for.
public enum PersistentHistoryResult: Sendable {
    /// For ``PersistentHistoryResultType/statusOnly``.
    case status(Bool)
    /// For ``PersistentHistoryResultType/count``.
    case count(Int)
    /// For ``PersistentHistoryResultType/objectIDs``.
    case objectIDs([ManagedObjectID])
    /// For ``PersistentHistoryResultType/transactionsOnly`` and ``PersistentHistoryResultType/transactionsAndChanges``.
    case transactions([PersistentHistoryTransaction])
    /// For ``PersistentHistoryResultType/changesOnly``.
    case changes([PersistentHistoryChange])

    /// The transactions, when the result has them.
    public var transactions: [PersistentHistoryTransaction]? {
        if case .transactions(let transactions) = self { return transactions } else { return nil }
    }

    /// The changes, when the result has them (directly, or inside its transactions).
    public var changes: [PersistentHistoryChange]? {
        switch self {
        case .changes(let changes): return changes
        case .transactions(let transactions): return transactions.flatMap { $0.changes ?? [] }
        default: return nil
        }
    }

    /// The count, for a ``PersistentHistoryResultType/count`` result.
    public var count: Int? {
        if case .count(let count) = self { return count } else { return nil }
    }
}
