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
    /// For a derived attribute (Core Data's `NSDerivedAttributeDescription`), how the store
    /// computes its value; nil for an attribute the program sets.
    public let derivation: Derivation?
    /// The derivation expression as given (Core Data's `derivationExpression`), also one that
    /// ``derivation`` could not read (which ``ManagedObjectModel/validate()`` refuses).
    public let derivationExpression: String?
    /// The rules a value must keep for its object to be saved (Core Data's validation
    /// predicates: minimum and maximum value and length, a regular expression, a predicate),
    /// fitted to the attribute's type.
    public let validationRules: [ValidationRule]
    /// Whether the attribute is transient (Core Data's `isTransient`): its value lives in the
    /// object only, never in the store. Setting it is a change of the object (`hasChanges`),
    /// which a save does not write; it starts from its default in every object made from the
    /// store, and goes back to it when the object becomes a fault.
    public let isTransient: Bool
    /// Why a rule as given cannot apply to the attribute (``ManagedObjectModel/validate()``
    /// refuses the model).
    let ruleProblems: [String]
    /// Whether a large value may be kept in a file beside the store rather than in its row
    /// (Core Data's `allowsExternalBinaryDataStorage`; binary data only). Reading and writing
    /// the attribute are the same either way; a predicate cannot test such a value's bytes.
    public let allowsExternalBinaryDataStorage: Bool
    /// The size from which a value of an attribute with external storage is kept in a file:
    /// 100 KiB (Core Data decides "heuristically", about as large, and does not document it).
    public static let externalStorageThreshold = 100 * 1024
    /// Whether its column may hold NULL although the attribute is not optional: an attribute of
    /// a sub-entity, in the hierarchy's table, whose other entities' rows leave it empty.
    var columnIsNullable = false

    /// An attribute named `name` of `type`.
    ///
    /// With `derivationExpression` (Core Data's expression text, see ``Derivation``), a derived
    /// attribute: the store computes its value in each save's SQL transaction (and for every
    /// row when a migration adds it or changes its expression); it is nil until the object is
    /// first saved, the saving context's objects take the computed values, and setting one
    /// traps. A derived attribute is optional whatever `isOptional` says. An expression
    /// ManagedStore does not compute (or that does not fit the entity) is an error of the model:
    /// ``ManagedObjectModel/validate()`` throws it, and so does loading a store with the model.
    ///
    /// ```swift
    /// AttributeDescription(name: "searchName", type: .string, derivationExpression: "canonical:(name)")
    /// AttributeDescription(name: "bookCount", type: .integer64, derivationExpression: "books.@count")
    /// ```
    ///
    /// `validationRules` are checked when an object is saved (see ``ValidationRule``); one that
    /// cannot apply to `type` is an error of the model, as an expression is.
    public init(
        name: String, type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue = .null,
        renamingIdentifier: String? = nil, preservesValueInHistoryOnDeletion: Bool = false,
        derivationExpression: String? = nil, validationRules: [ValidationRule] = [], isTransient: Bool = false,
        allowsExternalBinaryDataStorage: Bool = false
    ) {
        precondition(!name.isEmpty, "ManagedStore: an attribute needs a name")
        precondition(!name.hasPrefix("Z_"), "ManagedStore: attribute names starting with Z_ are reserved (\(name))")
        precondition(
            defaultValue.fits(type),
            "ManagedStore: the default value \(defaultValue) of attribute '\(name)' does not fit its type \(type)")
        var derivation: Derivation?
        if let derivationExpression {
            // One it cannot compute is kept, and refused by the model's validate() and by the
            // store's loading, with its reason: never a trap.
            derivation = Derivation(expression: derivationExpression)
            precondition(defaultValue.isNull, "ManagedStore: the derived attribute '\(name)' cannot have a default")
        }
        self.derivation = derivation
        self.derivationExpression = derivationExpression
        self.name = name
        self.type = type
        self.isOptional = isOptional || derivationExpression != nil
        self.defaultValue = defaultValue
        self.renamingIdentifier = renamingIdentifier
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.isTransient = isTransient
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        var fitted: [ValidationRule] = []
        var problems: [String] = []
        if allowsExternalBinaryDataStorage && (type != .binaryData || isTransient || derivationExpression != nil) {
            problems.append(
                "attribute '\(name)' allows external storage, which only a stored, not derived, binary data attribute has"
            )
        }
        if isTransient && derivationExpression != nil {
            problems.append(
                "attribute '\(name)' is transient and derived: a derived value is the store's, which a transient one never reaches"
            )
        }
        for rule in validationRules {
            switch rule.fitted(to: type) {
            case .success(let rule): fitted.append(rule)
            case .failure(let mismatch): problems.append("the rule \(rule) of attribute '\(name)': \(mismatch.reason)")
            }
        }
        self.validationRules = fitted
        self.ruleProblems = problems
    }

    /// The column that keeps a member's position in an ordered to-many relationship, on the
    /// member's table beside its to-one key: `Z_FOK_<to-one>` (Core Data's name for it). An
    /// optional 64-bit integer; its `Z_` name is reserved, so no attribute can take it.
    init(positionColumnOf toOne: String) {
        self.name = "Z_FOK_\(toOne)"
        self.type = .integer64
        self.isOptional = true
        self.defaultValue = .null
        self.renamingIdentifier = nil
        self.preservesValueInHistoryOnDeletion = false
        self.derivation = nil
        self.derivationExpression = nil
        self.validationRules = []
        self.isTransient = false
        self.ruleProblems = []
        self.allowsExternalBinaryDataStorage = false
    }

    public var description: String {
        var text = "\(name): \(type.rawValue)"
        if isOptional { text += "?" }
        if !defaultValue.isNull { text += " = \(defaultValue)" }
        if let derivation { text += " (derived: \(derivation))" }
        if isTransient { text += " (transient)" }
        if allowsExternalBinaryDataStorage { text += " (external storage)" }
        return text
    }
}
