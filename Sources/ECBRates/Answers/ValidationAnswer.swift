import EurofxrefFeed

/// What `validate` found: a summary of each file, all of them good (a bad one is an error).
public struct ValidationAnswer: Sendable, Equatable {
    /// One summary per file, in order.
    public let files: [FeedSummary]

    /// The answer for `files`.
    public init(files: [FeedSummary]) { self.files = files }
}
