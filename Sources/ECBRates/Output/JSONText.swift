import Foundation
import ManagedStore

/// JSON written by hand, with keys in a fixed order and decimals exactly as they are (so that a
/// rate prints as `1.179`, never `1.1789999999`): the stable output scripts read. The one JSON
/// encoder of every answer, for the command line, the server and MCP alike.
///
/// ```swift
/// JSONText.object([("currency", .string("USD")), ("rate", .decimal(rate))]).text  // {"currency":"USD","rate":1.0811}
/// ```
public indirect enum JSONText: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A count or a measure (whole numbers without a fraction).
    case number(Double)
    /// A decimal, exactly (its canonical text).
    case decimal(Decimal)
    /// A number already written as JSON (a rounded derived value, trailing zeros kept).
    case raw(String)
    /// A string, escaped.
    case string(String)
    /// An array.
    case array([JSONText])
    /// An object, its keys in the order given.
    case object([(String, JSONText)])

    /// An object of `object`'s keys in sorted order, written compactly.
    public static func render(_ object: [String: JSONText]) -> String {
        JSONText.object(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).text
    }

    /// The JSON text, compact.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the JSON text to `out`, in one pass (a series of 7,000 rows is one string).
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { out += String(Int64(value)) } else { out += String(value) }
        case .decimal(let value): out += DecimalText.format(value)
        case .raw(let text): out += text
        case .string(let value): out += Self.quote(value)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                out += Self.quote(pair.0)
                out += ":"
                pair.1.write(to: &out)
            }
            out += "}"
        }
    }

    /// `text` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        // Most strings (codes, days, keys) need no escapes.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
