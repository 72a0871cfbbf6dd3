import Synchronization

/// Collects the declarations of a command while it is made: each property wrapper registers
/// its input when the command's `init()` makes it, in the order they are written, which is the
/// order help lists them in.
///
/// `@unchecked Sendable`: `declarations` is guarded by its `Mutex`.
final class DeclarationCollector: @unchecked Sendable {
    /// The collector of the command being made on this task, if any.
    @TaskLocal static var current: DeclarationCollector?

    private let declarations = Mutex<[InputDeclaration]>([])

    /// Makes a command of type `C` and returns it with its declarations, in order.
    static func make<C: ParsableCommand>(_: C.Type) -> (C, [InputDeclaration]) {
        let collector = DeclarationCollector()
        let command = $current.withValue(collector) { C() }
        return (command, collector.declarations.withLock { $0 })
    }

    /// Records `declaration` in the current collector. A wrapper made outside
    /// ``make(_:)`` is a programmer's error: its input would never be parsed.
    static func register(_ declaration: InputDeclaration) {
        guard let collector = current else {
            preconditionFailure(
                "the input \(declaration.name) was declared outside a command's declaration (make commands with DeclarationCollector.make)"
            )
        }
        collector.declarations.withLock { $0.append(declaration) }
    }
}
