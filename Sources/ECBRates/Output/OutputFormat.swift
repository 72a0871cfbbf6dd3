/// What a command writes: text for people, or a format for programs. Each command allows the
/// ones it can write; the server chooses one from the request.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned text for people (the default).
    case text
    /// One JSON document; errors, too, are one JSON object on standard error.
    case json
    /// CSV with a header line (RFC 4180 quoting).
    case csv
    /// One JSON object per line, streamed: constant memory however long the output.
    case ndjson
    /// An SVG chart (series).
    case svg

    /// True for the formats programs read, whose errors are JSON too.
    public var isJSON: Bool { self == .json || self == .ndjson }
}
