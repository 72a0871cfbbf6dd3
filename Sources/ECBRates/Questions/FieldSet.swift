import Foundation

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

    /// The fields, as its ``Field`` properties declare them, in their order.
    public static var fields: [QuestionField] {
        Mirror(reflecting: Self()).children.compactMap { ($0.value as? any FieldDeclaration)?.field }
    }

    /// The values of `input` (each ``Field`` takes its own by its field's name), cross-checked
    /// (``check()``).
    public init(_ input: QuestionInput) throws(QuestionRefusal) {
        self = QuestionInput.$beingRead.withValue(input) { Self() }
        try check()
    }

    /// The values `parameters` give (``QuestionInput/reading(_:parameters:)``), cross-checked.
    public init(parameters: [(name: String, value: String)]) throws(QuestionRefusal) {
        try self.init(try QuestionInput.reading(Self.fields, parameters: parameters))
    }
}
