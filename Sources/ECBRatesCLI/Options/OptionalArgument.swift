/// A positional argument that may be left out: nil then.
@propertyWrapper
struct OptionalArgument<Value: Sendable>: Sendable {
    private let box: InputBox<Value?>

    /// The value, or nil when left out.
    var wrappedValue: Value? { box.value }

    /// An optional argument.
    init(_ spec: ArgumentSpec<Value>) {
        let box = InputBox<Value?>(nil)
        self.box = box
        DeclarationCollector.register(
            InputDeclaration(
                name: spec.name, help: spec.help, kind: .argument(optional: true, repeating: false), choices: [],
                completion: spec.completion,
                assign: { words in if let word = words.first { box.set(try spec.value(of: word)) } },
                wasRead: { box.wasRead }))
    }
}
