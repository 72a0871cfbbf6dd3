import Foundation
import Synchronization

/// A set of fields as a type's ``Field`` properties: a ``Question``, or what a door takes beside
/// one (``ConvertBatch``, the parameters of a CSV conversion). The fields are listed in
/// declaration order (``fields``), and ``init(_:)`` fills each from an input by its field's name.
public protocol FieldSet: Sendable {
    /// Every field at its default.
    init()
    /// Refuses values that disagree with each other (a range whose start is after its end); the
    /// default accepts every one.
    func check() throws(QuestionRefusal)
}

extension FieldSet {
    public func check() throws(QuestionRefusal) {}

    /// The fields, as its ``Field`` properties declare them, in their order: each ``Field``
    /// says itself as `init()` makes it, once per type (each door lists them for every request),
    /// and is checked then (a property whose type cannot hold its field's kind is a programmer's
    /// error). Not `Mirror`: on Linux a mirror's first questions about a type scan every protocol
    /// conformance of the binary, a cost at every start of the command line.
    public static var fields: [QuestionField] {
        FieldSetIndex.fields(of: Self.self) {
            let collector = FieldSetIndex.Collector()
            _ = FieldSetIndex.$collecting.withValue(collector) { Self() }
            return collector.fields.withLock { $0 }
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
    /// The fields a set's `init()` made, in order.
    final class Collector: Sendable {
        let fields = Mutex<[QuestionField]>([])
    }

    /// The collector of the set being made on this task, if any (``FieldSet/fields``).
    @TaskLocal static var collecting: Collector?

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
