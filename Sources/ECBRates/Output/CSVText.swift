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

    /// Appends `field` to `out`, quoted if it holds the delimiter (a comma), a quote or a line break.
    public static func append(_ field: String, to out: inout String, delimiter: UInt8 = UInt8(ascii: ",")) {
        if field.utf8.contains(where: {
            $0 == delimiter || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }) {
            out += "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        } else {
            out += field
        }
    }

    /// `field`, quoted if it holds `delimiter`, a quote or a line break.
    public static func quoted(_ field: String, delimiter: UInt8) -> String {
        var out = ""
        append(field, to: &out, delimiter: delimiter)
        return out
    }
}
