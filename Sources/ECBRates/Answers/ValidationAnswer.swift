import EurofxrefFeed

/// What `validate` found: a summary of each good file, and the error of each bad one.
public struct ValidationAnswer: Sendable, Equatable {
    /// A file that failed: its name, the error's words and its stable code.
    public struct Failure: Sendable, Equatable {
        /// The file (`-` for standard input).
        public let source: String
        /// The error, as people read it.
        public let message: String
        /// The failure's kind as a stable word (`bad-data`, `no-input`, …).
        public let code: String

        /// A failure of `source`.
        public init(source: String, message: String, code: String) {
            self.source = source
            self.message = message
            self.code = code
        }
    }

    /// One summary per good file, in order.
    public let files: [FeedSummary]
    /// The files that failed, in order.
    public let failed: [Failure]

    /// The answer for good `files` and `failed` ones.
    public init(files: [FeedSummary], failed: [Failure] = []) {
        self.files = files
        self.failed = failed
    }
}
