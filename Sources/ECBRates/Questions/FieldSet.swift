import Foundation
import Synchronization

/// A set of fields as a type's ``Field`` properties: a ``Question``, or what a door takes beside
/// one (``ConvertBatch``, the parameters of a CSV conversion). The fields are found by `Mirror`
/// in declaration order, and ``init(_:)`` fills each from an input by its field's name.
public protocol FieldSet: Sendable {
    /// Every field at its default.
    init()
    /// Refuses values that disagree with each other (a range whose start is after its end); the
    /// default accepts every one.
    func check() throws(QuestionRefusal)
}

extension FieldSet {
    public func check() throws(QuestionRefusal) {}

    /// The fields, as its ``Field`` properties declare them, in their order: found by `Mirror`
    /// once per type (each door lists them for every request), and checked then: a property whose
    /// type cannot hold its field's kind is a programmer's error.
    public static var fields: [QuestionField] {
        FieldSetIndex.fields(of: Self.self) {
            Mirror(reflecting: Self()).children.compactMap { child -> QuestionField? in
                guard let declared = child.value as? any FieldDeclaration else { return nil }
                precondition(
                    declared.holdsItsKind,
                    "\(Self.self).\(child.label ?? "?"): field \(declared.field.name) is a \(declared.field.kind), which its type cannot hold"
                )
                return declared.field
            }
        }
    }

    /// The values of `input` (each ``Field`` takes its own by its field's name), cross-checked
    /// (``check()``).
    public init(_ input: QuestionInput) throws(QuestionRefusal) {
        self = QuestionInput.$beingRead.withValue(input) { Self() }
        try check()
    }

    /// The values of `input`, once every field it needs is there (a question, once it can be asked).
    public static func asking(_ input: QuestionInput) throws(QuestionRefusal) -> Self {
        for field in fields where field.isRequired && !input.has(field.name) {
            throw QuestionRefusal(.missing(field))
        }
        return try Self(input)
    }

    /// The values `parameters` give (``QuestionInput/reading(_:parameters:)``), cross-checked.
    public init(parameters: [(name: String, value: String)]) throws(QuestionRefusal) {
        try self.init(try QuestionInput.reading(Self.fields, parameters: parameters))
    }
}

/// The fields of each ``FieldSet`` type, found once.
enum FieldSetIndex {
    private static let known = Mutex<[ObjectIdentifier: [QuestionField]]>([:])

    /// The fields of `type`, made by `find` the first time.
    static func fields(of type: Any.Type, find: () -> [QuestionField]) -> [QuestionField] {
        let key = ObjectIdentifier(type)
        if let fields = known.withLock({ $0[key] }) { return fields }
        let fields = find()
        known.withLock { $0[key] = fields }
        return fields
    }
}
