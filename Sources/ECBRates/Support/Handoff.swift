/// Moves a value that is not `Sendable` to another thread, which becomes its only user.
///
/// `@unchecked Sendable`: the sender gives the value up at the handoff and never touches it
/// again; from then on one thread at a time uses it.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
}
