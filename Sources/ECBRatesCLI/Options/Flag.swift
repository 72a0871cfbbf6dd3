/// A flag of a command (`--dry-run`), declared once: true when given.
@propertyWrapper
struct Flag: Sendable {
    private let box: InputBox<Bool>

    /// Whether the flag was given.
    var wrappedValue: Bool { box.value }

    /// The flag `spec`.
    init(_ spec: FlagSpec) {
        let box = InputBox(false)
        self.box = box
        DeclarationCollector.register(
            InputDeclaration(
                name: spec.name, help: spec.help, kind: .flag, choices: [], completion: .none,
                assign: { texts in if !texts.isEmpty { box.set(true) } }, wasRead: { box.wasRead }))
    }
}
