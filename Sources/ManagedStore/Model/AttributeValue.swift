import Foundation

/// The value of one attribute of a managed object, as the stack holds it: `Sendable` and
/// `Hashable`, so that snapshots and save notifications can cross queues.
///
/// Decimals compare by value: `.decimal(1.1790) == .decimal(1.179)`.
public enum AttributeValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case string(String)
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case boolean(Bool)
    case date(Date)
    /// A calendar day, as days since 1970-01-01 (negative before).
    case day(Int)
    case binaryData(Data)
    case uuid(UUID)
    /// The destination of a to-one relationship (an ID is 16 bytes, so that every value of
    /// every attribute stays 24: `ManagedObjectID`).
    case object(ManagedObjectID)
    /// The members of a to-many relationship, by ID: what ``ManagedObject/changedValues()`` and
    /// ``ManagedObject/committedValues(forKeys:)`` give for one (never a column's value).
    case objects(Set<ManagedObjectID>)

    /// True for `.null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .null: return "nil"
        case .string(let value): return "\"\(value)\""
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .decimal(let value): return value.description
        case .boolean(let value): return String(value)
        case .date(let value): return value.formatted(.iso8601)
        case .day(let days):
            return Date(timeIntervalSince1970: Double(days) * 86_400).formatted(.iso8601.year().month().day())
        case .binaryData(let value): return "<\(value.count) bytes>"
        case .uuid(let value): return value.uuidString
        case .object(let id): return id.description
        case .objects(let ids): return "[" + ids.map(\.description).sorted().joined(separator: ", ") + "]"
        }
    }

    /// Whether this value can be stored in an attribute of `type`.
    func fits(_ type: AttributeType) -> Bool {
        switch (self, type) {
        case (.null, _): return true
        case (.string, .string), (.double, .double), (.decimal, .decimal), (.boolean, .boolean),
            (.date, .date), (.day, .day), (.binaryData, .binaryData), (.binaryData, .transformable), (.uuid, .uuid),
            (.object, .objectID):
            return true
        case (.string(let text), .uri): return URL(string: text) != nil
        case (.integer(let value), .integer16): return Int16(exactly: value) != nil
        case (.integer(let value), .integer32): return Int32(exactly: value) != nil
        case (.integer, .integer64): return true
        default: return false
        }
    }

    /// Orders two values of the same attribute as the store's SQL does: null first, numbers by
    /// value, text by code points, data by bytes.
    static func ascending(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.integer(let a), .integer(let b)): return a < b
        case (.double(let a), .double(let b)): return a < b
        case (.decimal(let a), .decimal(let b)): return a < b
        case (.boolean(let a), .boolean(let b)): return !a && b
        case (.date(let a), .date(let b)): return a < b
        case (.day(let a), .day(let b)): return a < b
        case (.binaryData(let a), .binaryData(let b)): return a.lexicographicallyPrecedes(b)
        case (.uuid(let a), .uuid(let b)): return a.uuidString < b.uuidString
        case (.object(let a), .object(let b)): return a.key < b.key
        default: return false
        }
    }
}
