import Foundation

/// JSON numbers kept as the text they were written as. Foundation's `JSONSerialization` reads
/// a number into a double: `1e400` fails the whole message (so its id is lost), `0.1` and a
/// 20-digit amount are no longer what was sent, and `1e3` passes where the string `"1e3"` is
/// refused. ``protect(_:)`` rewrites each number outside strings as a string of its literal text,
/// marked, before parsing; an argument's reader (``QuestionField/parse(json:)``) reads it by the
/// rule the same text has as a string, and an id is given back as the number it was. A lone
/// surrogate escape (`"\\ud800"`, which JSON allows and Foundation refuses) becomes U+FFFD, so
/// that the message is read and its id answered.
public enum JSONNumberLiteral {
    /// What begins a protected number's string (a private-use character, which no JSON text
    /// written by a client to mean a number would hold).
    public static let marker = "\u{F8FF}#"

    /// `json` with every number outside a string written as a marked string of its text.
    /// Anything that is not JSON is left for the parser to refuse.
    public static func protect(_ json: String) -> String {
        let bytes = Array(json.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var index = 0
        var inString = false
        // The last byte outside strings that is not whitespace: a comma right before a closing
        // bracket is no JSON, but Foundation's parser on Linux takes it; it becomes `#`, which
        // no parser takes, so the message is refused as JSON refuses it.
        var lastComma: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if !inString {
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]"), let comma = lastComma {
                    out[comma] = UInt8(ascii: "#")
                }
                if byte == UInt8(ascii: ",") {
                    lastComma = out.count
                } else if ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(
                    byte)
                {
                    lastComma = nil
                }
            }
            if inString {
                if byte == UInt8(ascii: "\\"), let surrogate = Self.surrogate(bytes, at: index) {
                    // A surrogate escape: kept when a high one is followed by a low one; else
                    // (JSON allows a lone one, Foundation refuses the message) U+FFFD.
                    if (0xD800...0xDBFF).contains(surrogate), let low = Self.surrogate(bytes, at: index + 6),
                        (0xDC00...0xDFFF).contains(low)
                    {
                        out.append(contentsOf: bytes[index..<index + 12])
                        index += 12
                    } else {
                        out.append(contentsOf: Array("\\ufffd".utf8))
                        index += 6
                    }
                    continue
                }
                out.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    out.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                out.append(byte)
                index += 1
                continue
            }
            if byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                var end = index + 1
                while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: marker.utf8)
                out.append(contentsOf: bytes[index..<end])
                out.append(UInt8(ascii: "\""))
                index = end
                continue
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The literal text of a protected number, or nil for any other value.
    public static func literal(_ value: Any) -> String? {
        guard let text = value as? String, text.hasPrefix(marker) else { return nil }
        return String(text.dropFirst(marker.count))
    }

    /// The code unit of a `\\uD800`…`\\uDFFF` escape at `index`, or nil.
    private static func surrogate(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u"),
            let value = Int(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16),
            (0xD800...0xDFFF).contains(value)
        else { return nil }
        return value
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-")
    }
}
