/// One attribute of an entity: its name, its type, whether it may be nil, and its default.
///
/// ```swift
/// AttributeDescription(name: "title", type: .string)
/// AttributeDescription(name: "stars", type: .integer16, defaultValue: .integer(0))
/// AttributeDescription(name: "note", type: .string, isOptional: true)
/// ```
public struct AttributeDescription: Sendable, Hashable, CustomStringConvertible {
    /// The attribute's name: the name of the `@Attribute` property, and of the store's column.
    public let name: String
    /// The attribute's type.
    public let type: AttributeType
    /// Whether the attribute may be nil (a save with nil in a non-optional attribute fails).
    public let isOptional: Bool
    /// The value a newly inserted object starts with (`.null` when there is none).
    public let defaultValue: AttributeValue
    /// The attribute's name in the previous model version, when it was renamed (Core Data's
    /// `renamingIdentifier`), so that a migration keeps its values.
    public let renamingIdentifier: String?
    /// Whether the persistent history keeps the attribute's value when its object is deleted,
    /// in the deletion's tombstone (Core Data's `preservesValueInHistoryOnDeletion`: "whether
    /// to preserve the value in persistent history when the owning object is deleted"; the
    /// values of the entity's uniqueness constraints are always kept). Default false.
    public var preservesValueInHistoryOnDeletion: Bool

    /// An attribute named `name` of `type`.
    public init(
        name: String, type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue = .null,
        renamingIdentifier: String? = nil, preservesValueInHistoryOnDeletion: Bool = false
    ) {
        precondition(!name.isEmpty, "ManagedStore: an attribute needs a name")
        precondition(!name.hasPrefix("Z_"), "ManagedStore: attribute names starting with Z_ are reserved (\(name))")
        precondition(
            defaultValue.fits(type),
            "ManagedStore: the default value \(defaultValue) of attribute '\(name)' does not fit its type \(type)")
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.renamingIdentifier = renamingIdentifier
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
    }

    public var description: String {
        var text = "\(name): \(type.rawValue)"
        if isOptional { text += "?" }
        if !defaultValue.isNull { text += " = \(defaultValue)" }
        return text
    }
}
