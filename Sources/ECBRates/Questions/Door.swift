/// The way a question comes in: the command line, the HTTP API (`/api/`), an MCP tool call, or
/// a form of the server's page.
/// Each spells a question's fields its own way (`--partial`, `partial=true`, `"partial": true`),
/// and every message that names a field (a refusal, a piece of advice) names it the door's way.
public enum Door: Sendable, Equatable {
    /// `ecbrates rate USD --date 2024-03-28`.
    case commandLine
    /// `GET /api/rate?currencies=USD&date=2024-03-28`.
    case api
    /// `tools/call` of `rate` with `{"currencies": "USD", "date": "2024-03-28"}`.
    case mcp
    /// A form of the server's page (`GET /?…`): `/api/`'s spelling, with the fields in
    /// `renamed` under the form's own names (the chart's `start` and `end` for a series' `from`
    /// and `to`, the converter having those).
    case page(renamed: [String: String])
    /// A Swift program calling ``RateQueries``: `rate("USD", on: day, fallback: .previous)`.
    /// A ``QueryError``'s `description` speaks to it.
    case swift

    /// How a message names `field`: `'--date <day>'` or `'<currencies>'`, `date`, `"date"`.
    public func label(_ field: QuestionField) -> String {
        switch self {
        case .commandLine:
            field.placement == .argument ? "'<\(field.name)>'" : "'\(field.optionName) <\(field.valueName)>'"
        case .api: field.name
        case .page(let renamed): renamed[field.name] ?? field.name
        case .mcp: "\"\(field.name)\""
        case .swift: "'\(field.swiftName):'"
        }
    }

    /// How to ask for `field` set to `value` (a flag: set at all): `--fallback previous` or
    /// `--partial`, `fallback=previous` or `partial=true`, `"fallback": "previous"` or
    /// `"partial": true`.
    public func spell(_ field: QuestionField, _ value: String? = nil) -> String {
        switch self {
        case .commandLine:
            field.kind == .flag ? field.optionName : "\(field.optionName) \(value ?? "<\(field.valueName)>")"
        case .api, .page: "\(label(field))=\(value ?? (field.kind == .flag ? "true" : field.valueName))"
        case .mcp:
            field.kind == .flag
                ? "\"\(field.name)\": true" : "\"\(field.name)\": \"\(value ?? field.valueName)\""
        case .swift:
            "\(field.swiftName): \(field.kind == .flag ? "true" : value.map { Self.swiftValue($0, of: field) } ?? field.valueName)"
        }
    }

    /// How to ask for `field` set to one of `values`: `--fallback previous, next, nearest or
    /// interpolate`, `fallback=previous, next, nearest or interpolate (one of them)`, `"fallback":
    /// "previous", "next", "nearest" or "interpolate"`.
    public func spell(_ field: QuestionField, oneOf values: [String]) -> String {
        let words =
            switch self {
            case .mcp: values.map { "\"\($0)\"" }
            case .swift: values.map { Self.swiftValue($0, of: field) }
            default: values
            }
        let list = words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
        switch self {
        case .commandLine: return "\(field.optionName) \(list)"
        case .api, .page: return "\(label(field))=" + (words.count < 2 ? list : "\(list) (one of them)")
        case .mcp: return "\"\(field.name)\": \(list)"
        case .swift: return "\(field.swiftName): \(list)"
        }
    }

    /// A value as a Swift caller writes it: a choice's case (`.previous`), else as it is.
    private static func swiftValue(_ value: String, of field: QuestionField) -> String {
        if case .choice = field.kind { return "." + value }
        return value
    }

    /// How to name a batch's number format: `--number-format 1,234.56 or 1.234,56 (or 1'234.56,
    /// 1234,56)`, `number_format=…`.
    public var spellNumberFormats: String {
        let name =
            switch self {
            case .commandLine: "--number-format "
            case .mcp: "\"number_format\": "
            case .swift: "numberFormat: "
            case .api, .page: "number_format="
            }
        return "\(name)1,234.56 or \(name)1.234,56 (or 1'234.56, 1234,56)"
    }

    /// How a batch's delimiter is named: `--delimiter semicolon`, `delimiter=semicolon`.
    public func spellDelimiter(_ delimiter: CSVDelimiter) -> String {
        self == .commandLine ? "--delimiter \(delimiter.rawValue)" : "delimiter=\(delimiter.rawValue)"
    }

    /// What a field is called in the door's words: an argument or option, a parameter, an argument.
    var fieldWord: String {
        switch self {
        case .commandLine: "option"
        case .api, .page: "parameter"
        case .mcp: "argument"
        case .swift: "parameter"
        }
    }
}
