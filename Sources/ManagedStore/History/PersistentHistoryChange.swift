import Foundation

/// One object's change in a history transaction (Core Data's `NSPersistentHistoryChange`).
public struct PersistentHistoryChange: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the object.
    public enum ChangeType: Int, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The object was inserted.
        case insert = 0
        /// Some of the object's attributes or to-one relationships changed.
        case update = 1
        /// The object was deleted.
        case delete = 2

        public var description: String {
            switch self {
            case .insert: return "insert"
            case .update: return "update"
            case .delete: return "delete"
            }
        }
    }

    /// The change's number: unique in the store, increasing with time.
    public let changeID: Int64
    /// The object that changed.
    public let changedObjectID: ManagedObjectID
    /// Insert, update or delete.
    public let changeType: ChangeType
    /// For an update, the names of the attributes and to-one relationships whose stored values
    /// changed (Core Data's `updatedProperties`); nil otherwise.
    public let updatedProperties: Set<String>?
    /// For a deletion, the values the object had in the attributes of its entity's uniqueness
    /// constraints (Core Data keeps those it is asked to preserve on deletion), so that a
    /// reader can tell which row went even though it is gone; nil otherwise.
    public let tombstone: [String: AttributeValue]?
    /// The number of the transaction the change belongs to.
    public let transactionNumber: Int64

    public var description: String {
        var text = "\(changeType) \(changedObjectID)"
        if let updatedProperties { text += " (\(updatedProperties.sorted().joined(separator: ", ")))" }
        if let tombstone {
            text += " " + tombstone.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        return text
    }
}
