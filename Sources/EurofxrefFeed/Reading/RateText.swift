import Foundation

/// Checks and converts the attribute values of an ECB file, straight from the parser's bytes.
enum RateText {
    /// What the text of a rate spells.
    enum Parsed {
        /// A decimal, exactly.
        case value(Decimal)
        /// A decimal with more digits than may be kept exactly (after leading zeros of the
        /// integer part and trailing zeros of the fraction).
        case tooManyDigits(Int)
        /// Not a plain decimal: signs, exponents, commas, spaces, nothing.
        case notDecimal

        /// Whether it is a decimal that may be kept.
        var isValue: Bool {
            if case .value = self { return true }
            return false
        }
    }

    /// The decimal a rate spells: digits with at most one point, and a digit on at least one side
    /// of it, of at most `maximumDigits` digits once leading zeros of the integer part and
    /// trailing zeros of the fraction are dropped. Exact: never rounded.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, maximumDigits: Int) -> Parsed {
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        var integerDigits = 0  // after leading zeros
        var fractionToLastNonZero = 0  // fraction digits up to the last non-zero one
        var sawNonZero = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                let digit = byte - UInt8(ascii: "0")
                if sawPoint {
                    fractionDigits += 1
                    if digit != 0 { fractionToLastNonZero = fractionDigits }
                } else if integerDigits > 0 || digit != 0 {
                    integerDigits += 1
                }
                if digit != 0 { sawNonZero = true }
                if sawNonZero { significantDigits += 1 }
                if significantDigits <= 18 { mantissa = mantissa * 10 + UInt64(digit) }
            case UInt8(ascii: ".") where !sawPoint:
                sawPoint = true
            default:
                return .notDecimal
            }
        }
        guard sawDigit else { return .notDecimal }
        let digits = integerDigits + fractionToLastNonZero
        guard digits <= maximumDigits else { return .tooManyDigits(digits) }
        if significantDigits <= 18 {
            return .value(Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(mantissa)))
        }
        // More digits than 64 bits hold: rare, and left to Foundation, whose answer is checked
        // digit for digit against the text.
        let text = String(decoding: bytes, as: UTF8.self)
        guard let value = Decimal(string: text, locale: nil), canonical(text) == canonical(value.description) else {
            return .tooManyDigits(digits)
        }
        return .value(value)
    }

    /// A plain decimal's text without leading zeros of its integer part or trailing zeros of its
    /// fraction (`007.50` is `7.5`, `.5` is `0.5`, `20.` is `20`).
    static func canonical(_ text: String) -> String {
        var parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var integer = String(parts[0].drop { $0 == "0" })
        if integer.isEmpty { integer = "0" }
        var fraction = parts.count > 1 ? parts[1] : ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        parts = fraction.isEmpty ? [integer] : [integer, fraction]
        return parts.joined(separator: ".")
    }

    /// Whether the bytes are three upper-case ASCII letters.
    static func isCurrencyCode(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 3 && bytes.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// A three-letter code packed into an integer, for fast duplicate checks.
    static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }

    /// The bytes as text for a message, on one line (control characters escaped), shortened
    /// when long.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        for scalar in String(decoding: bytes.prefix(40), as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: text += "\\u{\(String(scalar.value, radix: 16))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        if bytes.count > 40 { text += "…" }
        return "\"" + text + "\""
    }
}
