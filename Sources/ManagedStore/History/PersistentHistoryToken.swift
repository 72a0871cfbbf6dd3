import Foundation

/// A bookmark in a store's persistent history (Core Data's `NSPersistentHistoryToken`): the
/// point after a given transaction. Fetch what happened since with
/// ``PersistentHistoryChangeRequest/fetchHistory(after:)-(PersistentHistoryToken?)``.
///
/// Tokens are `Codable`, so a front-end can keep its last one across runs, and ordered within
/// one store. Their text form (``description``) is the transaction number, which
/// ``init(_:storeIdentifier:)`` reads back.
///
/// ```swift
/// let data = try JSONEncoder().encode(token)      // kept on disk
/// let token = try JSONDecoder().decode(PersistentHistoryToken.self, from: data)
/// ```
public struct PersistentHistoryToken: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The identifier of the store the token belongs to (``PersistentStore/identifier``).
    public let storeIdentifier: String
    /// The number of the last transaction the token includes (0: before any transaction).
    public let transactionNumber: Int64

    /// The token after transaction `transactionNumber` of the store `storeIdentifier`.
    public init(transactionNumber: Int64, storeIdentifier: String) {
        self.transactionNumber = transactionNumber
        self.storeIdentifier = storeIdentifier
    }

    /// The token whose text form is `text` (a transaction number), for the store
    /// `storeIdentifier`; nil when `text` is not a number of zero or more.
    public init?(_ text: String, storeIdentifier: String) {
        guard let number = Int64(text), number >= 0 else { return nil }
        self.init(transactionNumber: number, storeIdentifier: storeIdentifier)
    }

    /// Orders tokens of one store by transaction; tokens of different stores order by store.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    /// The transaction number, as text.
    public var description: String { String(transactionNumber) }
}
