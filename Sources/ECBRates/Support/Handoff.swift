/// Moves a value that is not `Sendable` to another thread, which becomes its only user.
///
/// `@unchecked Sendable`: the sender gives the value up at the handoff and never touches it
/// again; from then on one thread at a time uses it.
public struct Handoff<Value>: @unchecked Sendable {
    /// The value handed over; used only by the thread it was handed to.
    public let value: Value

    /// Hands `value` over; the caller must not use it afterwards.
    public init(value: Value) { self.value = value }
}
