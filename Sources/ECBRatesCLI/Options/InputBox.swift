import Synchronization

/// The box a declared input's typed value lives in, shared by the property wrapper (which the
/// command reads) and the declaration (which the parser sets).
///
/// `@unchecked Sendable`: `state` is guarded by its `Mutex` (the parser writes the value before
/// the command runs; the command reads it, and the read is recorded for the test that proves
/// every declared input is read).
final class InputBox<Value: Sendable>: @unchecked Sendable {
    private let state: Mutex<(value: Value, read: Bool)>

    init(_ value: Value) { state = Mutex((value, false)) }

    /// The value, recorded as read.
    var value: Value {
        state.withLock { state in
            state.read = true
            return state.value
        }
    }

    /// Sets the value (the parser).
    func set(_ value: Value) { state.withLock { $0.value = value } }

    /// Changes the value in place (the parser), without recording a read.
    func update(_ body: (inout Value) -> Void) { state.withLock { body(&$0.value) } }

    /// Whether the command read the value.
    var wasRead: Bool { state.withLock { $0.read } }
}
