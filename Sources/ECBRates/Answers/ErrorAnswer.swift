/// A failure as an answer: its message and the status it ends with (an exit code on the
/// command line), for programs that asked for JSON.
public struct ErrorAnswer: Sendable, Equatable {
    /// The message, as people read it.
    public let message: String
    /// The exit status (or HTTP status) it ends with.
    public let status: Int32
    /// The failure's kind as a stable word (``FailureKind/code(of:)``), for programs to test.
    public let code: String

    /// The answer for a failure with `message`, `status` and `code`.
    public init(message: String, status: Int32, code: String) {
        self.message = message
        self.status = status
        self.code = code
    }
}
