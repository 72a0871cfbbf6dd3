/// An answer that renders itself in every format a front-end prints: text for people, JSON,
/// CSV and NDJSON for programs. Each answer has exactly one rendering, in its `+Rendering`
/// file here, shared by the command line, the HTTP server and MCP.
///
/// ```swift
/// let answer = try await store.read { try $0.rates(["USD"], on: day).first! }
/// print(answer.rendered(as: .json), terminator: "")   // {"currency":"USD",…}
/// ```
public protocol RenderableAnswer: Sendable {
    /// The answer for people, lines ending in a line break.
    var text: String { get }
    /// The answer as one JSON value.
    var json: JSONText { get }
    /// The answer as CSV: the header, then the rows.
    var csvRows: [[String]] { get }
    /// The answer as JSON lines: one value per row (by default, the whole answer as one).
    var ndjson: [JSONText] { get }
}

extension RenderableAnswer {
    public var ndjson: [JSONText] { [json] }

    /// The answer written in `format`: text, one JSON document, CSV with its header, or one
    /// JSON value per line. An SVG chart is drawn by a chart, not by an answer: asking for it
    /// here is a programmer's error.
    public func rendered(as format: OutputFormat) -> String {
        switch format {
        case .text: return text
        case .json: return json.text + "\n"
        case .csv: return csvRows.map(CSVText.line).joined()
        case .ndjson: return ndjson.map { $0.text + "\n" }.joined()
        case .svg: preconditionFailure("an answer has no SVG rendering; the command line draws charts")
        }
    }
}
