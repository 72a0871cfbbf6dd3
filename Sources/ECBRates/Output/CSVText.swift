import Foundation

/// CSV lines (RFC 4180 quoting where needed).
public enum CSVText {
    /// The fields as one line, quoted where they hold a comma, a quote or a line break.
    public static func line(_ fields: [String]) -> String {
        var out = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { out += "," }
            append(field, to: &out)
        }
        return out + "\n"
    }

    /// Appends `field` to `out`, quoted if it holds a comma, a quote or a line break.
    public static func append(_ field: String, to out: inout String) {
        if field.utf8.contains(where: {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }) {
            out += "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        } else {
            out += field
        }
    }
}
