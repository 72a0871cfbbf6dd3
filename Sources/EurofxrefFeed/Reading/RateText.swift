import Foundation

/// Checks and converts the attribute values of an ECB file, straight from the parser's bytes.
enum RateText {
    /// The decimal a rate spells: digits with at most one point, and a digit on at least one side
    /// of it; nil for anything else (signs, exponents, commas, spaces).
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                if mantissa > 0 || byte != UInt8(ascii: "0") { significantDigits += 1 }
                // More digits than 64 bits hold: rare enough to leave to Foundation.
                if significantDigits > 18 { return Decimal(string: String(decoding: bytes, as: UTF8.self), locale: nil) }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if sawPoint { fractionDigits += 1 }
            case UInt8(ascii: ".") where !sawPoint:
                sawPoint = true
            default:
                return nil
            }
        }
        guard sawDigit else { return nil }
        return Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(mantissa))
    }

    /// Whether the bytes are three upper-case ASCII letters.
    static func isCurrencyCode(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 3 && bytes.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// A three-letter code packed into an integer, for fast duplicate checks.
    static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }

    /// The bytes as text for a message, shortened when long.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = String(decoding: bytes.prefix(40), as: UTF8.self)
        if bytes.count > 40 { text += "…" }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
