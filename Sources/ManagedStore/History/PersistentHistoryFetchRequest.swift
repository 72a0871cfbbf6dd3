import Foundation

/// Which history to fetch, by a predicate on the transactions or on the changes, for
/// ``PersistentHistoryChangeRequest/fetchHistory(withFetch:)-(PersistentHistoryFetchRequest<PersistentHistoryTransaction>)``,
/// as Core Data's `NSPersistentHistoryTransaction.fetchRequest` and
/// `NSPersistentHistoryChange.fetchRequest` are used with `fetchHistory(withFetch:)`:
///
/// ```swift
/// var fetch = PersistentHistoryTransaction.fetchRequest!
/// fetch.predicate = #Predicate { $0.author != "front-end" }
/// let transactions = try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)).transactions
/// ```
///
/// The predicate is a Foundation `#Predicate` on the values (Core Data's is an `NSPredicate` on
/// the history entities' attributes), evaluated on the history the store keeps.
public struct PersistentHistoryFetchRequest<Element: Sendable>: Sendable {
    /// Which transactions (or changes) to return; nil: all.
    public var predicate: Predicate<Element>?
    /// At most this many transactions (0: no limit), oldest first.
    public var fetchLimit = 0

    /// A request for every transaction (or change), optionally those `predicate` selects.
    public init(predicate: Predicate<Element>? = nil) {
        self.predicate = predicate
    }
}

extension PersistentHistoryTransaction {
    /// A request for transactions, to narrow with a predicate (Core Data's
    /// `NSPersistentHistoryTransaction.fetchRequest`, optional there too).
    public static var fetchRequest: PersistentHistoryFetchRequest<PersistentHistoryTransaction>? {
        PersistentHistoryFetchRequest()
    }
}

extension PersistentHistoryChange {
    /// A request for changes, to narrow with a predicate (Core Data's
    /// `NSPersistentHistoryChange.fetchRequest`, optional there too).
    public static var fetchRequest: PersistentHistoryFetchRequest<PersistentHistoryChange>? {
        PersistentHistoryFetchRequest()
    }
}
