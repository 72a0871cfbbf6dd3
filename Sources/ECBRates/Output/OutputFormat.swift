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

    /// The formats every question's answer is written in for programs, at every door (`/api/`'s
    /// `format`, the command line's `--format`).
    public static let programFormats: [OutputFormat] = [.json, .csv, .ndjson]
    /// The formats a question's command offers: text for a person, then the programs' formats.
    public static let questionFormats: [OutputFormat] = [.text] + programFormats

    /// True for the formats programs read, whose errors are JSON too.
    public var isJSON: Bool { self == .json || self == .ndjson }
}
