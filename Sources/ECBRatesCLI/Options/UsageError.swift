/// A command line that does not fit its command: `Error: …` then `Usage: …`, exit 64.
struct UsageError: Error, Sendable, Equatable {
    let message: String
    /// The command whose usage to show (nil: the top level).
    var command: String?
    /// The stable word a program tests (`usage`, or a query's own, like `unknown-currency`).
    var code = "usage"

    init(_ message: String, command: String? = nil, code: String = "usage") {
        self.message = message
        self.command = command
        self.code = code
    }
}
