import Foundation

/// JSON written by hand, with keys in a fixed order and decimals exactly as they are (so that a
/// rate prints as `1.179`, never `1.1789999999`): the stable output scripts read.
indirect enum JSONText: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case decimal(Decimal)
    case string(String)
    case array([JSONText])
    case object([(String, JSONText)])

    /// An object with one key, written compactly.
    static func render(_ object: [String: JSONText]) -> String {
        JSONText.object(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).text
    }

    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .decimal(let value): return value.description
        case .string(let value): return Self.quote(value)
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let pairs): return "{" + pairs.map { Self.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    static func quote(_ text: String) -> String {
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
