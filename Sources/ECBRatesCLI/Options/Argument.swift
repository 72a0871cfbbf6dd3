/// A positional argument of a command, declared once with its type, in the order the words
/// come: required, optional (nil when left out), or repeating (every word left).
///
/// ```swift
/// @Argument(.currencies("currencies", help: "…"), optional: ()) var currencies: [String]?
/// ```
@propertyWrapper
struct Argument<Value: Sendable>: Sendable {
    private let box: InputBox<Value?>
    private let name: String

    /// The value. A required argument always has one once parsed (the parser refuses a
    /// command line without it).
    var wrappedValue: Value {
        guard let value = box.value else {
            preconditionFailure("the required argument <\(name)> was read before it was parsed")
        }
        return value
    }

    /// A required argument.
    init(_ spec: ArgumentSpec<Value>) {
        let box = InputBox<Value?>(nil)
        self.box = box
        name = spec.name
        DeclarationCollector.register(
            InputDeclaration(
                name: spec.name, help: spec.help, kind: .argument(optional: false, repeating: false), choices: [],
                completion: spec.completion,
                assign: { words in if let word = words.first { box.set(try spec.value(of: word)) } },
                wasRead: { box.wasRead }))
    }
}
