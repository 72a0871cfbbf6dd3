/// An option of a command, declared once as a property with its type: the parser sets it,
/// help lists it, and the command reads a typed value.
///
/// ```swift
/// @Option(CommonOptions.output) var output: String?                  // nil when not given
/// @Option(CommonOptions.format([.text, .json]), default: .text) var format: OutputFormat
/// ```
@propertyWrapper
struct Option<Value: Sendable>: Sendable {
    private let box: InputBox<Value>

    /// The value given (the last, when given more than once), or the default.
    var wrappedValue: Value { box.value }

    /// An option whose value is nil when it is not given.
    init<Wrapped: Sendable>(_ spec: OptionSpec<Wrapped>) where Value == Wrapped? {
        let box = InputBox<Value>(nil)
        self.box = box
        DeclarationCollector.register(Self.declaration(spec, wasRead: { box.wasRead }) { box.set($0) })
    }

    /// An option whose value is `default` when it is not given.
    init(_ spec: OptionSpec<Value>, default value: Value) {
        let box = InputBox(value)
        self.box = box
        DeclarationCollector.register(Self.declaration(spec, wasRead: { box.wasRead }) { box.set($0) })
    }

    private static func declaration<Wrapped>(
        _ spec: OptionSpec<Wrapped>, wasRead: @escaping @Sendable () -> Bool,
        set: @escaping @Sendable (Wrapped) -> Void
    ) -> InputDeclaration {
        InputDeclaration(
            name: spec.name, help: spec.help, kind: .option(value: spec.value), choices: spec.choices,
            completion: spec.completion,
            assign: { texts in if let last = texts.last { set(try spec.value(of: last)) } },
            wasRead: wasRead)
    }
}
