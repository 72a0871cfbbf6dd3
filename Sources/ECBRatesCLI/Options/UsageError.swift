/// A command line that does not fit its command: `Error: …` then `Usage: …`, exit 64.
struct UsageError: Error, Sendable, Equatable {
    let message: String
    /// The command whose usage to show (nil: the top level).
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
