/// A positional argument that takes every word left (`import FILE…`); `optional` when none
/// may be given.
@propertyWrapper
struct RepeatingArgument<Value: Sendable>: Sendable {
    private let box: InputBox<[Value]>

    /// The values, in order (empty when none was given).
    var wrappedValue: [Value] { box.value }

    /// A repeating argument.
    init(_ spec: ArgumentSpec<Value>, optional: Bool) {
        let box = InputBox<[Value]>([])
        self.box = box
        DeclarationCollector.register(
            InputDeclaration(
                name: spec.name, help: spec.help, kind: .argument(optional: optional, repeating: true), choices: [],
                completion: spec.completion, assign: { words in box.set(try words.map(spec.value(of:))) },
                wasRead: { box.wasRead }))
    }
}
