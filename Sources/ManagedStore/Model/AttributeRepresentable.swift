import Foundation

/// A Swift type that an ``Attribute`` property can have: it converts to and from the
/// ``AttributeValue`` the stack stores.
///
/// `String`, `Bool`, `Int`, `Int16`, `Int32`, `Int64`, `Double`, `Decimal`, `Date`, `Data`, `UUID`, `URL`
/// and optionals of each conform.
public protocol AttributeRepresentable {
    /// The attribute type that stores this Swift type.
    static var attributeType: AttributeType { get }
    /// True for optionals, whose attribute must be optional in the model.
    static var isOptionalAttribute: Bool { get }
    /// The value for a stored one; nil when `attributeValue` does not fit this type.
    init?(attributeValue: AttributeValue)
    /// This value as the stack stores it.
    var attributeValue: AttributeValue { get }
}

extension AttributeRepresentable {
    public static var isOptionalAttribute: Bool { false }
}

extension String: AttributeRepresentable {
    public static var attributeType: AttributeType { .string }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .string(self) }
}

extension Bool: AttributeRepresentable {
    public static var attributeType: AttributeType { .boolean }
    public init?(attributeValue: AttributeValue) {
        guard case .boolean(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .boolean(self) }
}

extension Int64: AttributeRepresentable {
    public static var attributeType: AttributeType { .integer64 }
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .integer(self) }
}

extension Int: AttributeRepresentable {
    public static var attributeType: AttributeType { .integer64 }
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue, let int = Int(exactly: value) else { return nil }
        self = int
    }
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Int32: AttributeRepresentable {
    public static var attributeType: AttributeType { .integer32 }
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue, let int = Int32(exactly: value) else { return nil }
        self = int
    }
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Int16: AttributeRepresentable {
    public static var attributeType: AttributeType { .integer16 }
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue, let int = Int16(exactly: value) else { return nil }
        self = int
    }
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Double: AttributeRepresentable {
    public static var attributeType: AttributeType { .double }
    public init?(attributeValue: AttributeValue) {
        guard case .double(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .double(self) }
}

extension Decimal: AttributeRepresentable {
    public static var attributeType: AttributeType { .decimal }
    public init?(attributeValue: AttributeValue) {
        guard case .decimal(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .decimal(self) }
}

extension Date: AttributeRepresentable {
    public static var attributeType: AttributeType { .date }
    public init?(attributeValue: AttributeValue) {
        guard case .date(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .date(self) }
}

extension Data: AttributeRepresentable {
    public static var attributeType: AttributeType { .binaryData }
    public init?(attributeValue: AttributeValue) {
        guard case .binaryData(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .binaryData(self) }
}

/// A URI attribute's value (Core Data's `URIAttributeType`): held and stored as its
/// `absoluteString`, which compares and sorts as text.
extension URL: AttributeRepresentable {
    public static var attributeType: AttributeType { .uri }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let text) = attributeValue, let url = URL(string: text) else { return nil }
        self = url
    }
    public var attributeValue: AttributeValue { .string(absoluteString) }
}

extension UUID: AttributeRepresentable {
    public static var attributeType: AttributeType { .uuid }
    public init?(attributeValue: AttributeValue) {
        guard case .uuid(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue { .uuid(self) }
}

/// An object ID stands for a to-one relationship's key: a typed fetch reads it with the key path
/// `\Book.author?.objectID`, without making the author an object.
extension ManagedObjectID: AttributeRepresentable {
    public static var attributeType: AttributeType { .objectID }
    public init?(attributeValue: AttributeValue) {
        guard case .object(let id) = attributeValue else { return nil }
        self = id
    }
    public var attributeValue: AttributeValue { .object(self) }
}

extension Optional: AttributeRepresentable where Wrapped: AttributeRepresentable {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptionalAttribute: Bool { true }
    public init?(attributeValue: AttributeValue) {
        if case .null = attributeValue {
            self = .none
        } else if let value = Wrapped(attributeValue: attributeValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
    public var attributeValue: AttributeValue { self?.attributeValue ?? .null }
}
