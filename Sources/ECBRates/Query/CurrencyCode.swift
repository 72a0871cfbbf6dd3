import Foundation

/// A currency's ISO 4217 code: three letters, A to Z. Parsed once where a code comes in (a
/// question's field at any door, a library caller's text) and carried inward as it is: the
/// queries below never check or upper-case a code again.
///
/// ```swift
/// let usd = CurrencyCode("usd")       // Optional("USD"): upper-cased, else nil
/// let yen: CurrencyCode = "JPY"       // a literal in the program
/// let answer = try queries.rate(yen, base: .euro)
/// ```
public struct CurrencyCode: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral,
    Codable
{
    /// The three upper-case letters.
    public let text: String

    /// The euro, the currency every ECB reference rate is quoted against.
    public static let euro = CurrencyCode(stored: "EUR")

    /// The code `text` spells, in upper case; nil unless it is three letters A to Z in either
    /// case (blanks are not dropped: a door trims what it reads).
    public init?(_ text: some StringProtocol) {
        var bytes = Array(text.utf8)
        guard bytes.count == 3 else { return nil }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): continue
            case UInt8(ascii: "a")...UInt8(ascii: "z"): bytes[index] -= 32
            default: return nil
            }
        }
        self.text = String(decoding: bytes, as: UTF8.self)
    }

    /// A code written in the program. A literal that is not three letters is the programmer's
    /// mistake, and stops the program where it is used, as a malformed literal does.
    public init(stringLiteral value: String) {
        guard let code = CurrencyCode(value) else {
            preconditionFailure("\"\(value)\" is not a currency code: three letters, A to Z, were expected")
        }
        self = code
    }

    /// A code the store holds: checked when it was imported (``RateText``'s rule, the same as
    /// this type's), so it is taken as it is.
    package init(stored text: String) {
        self.text = text
    }

    /// Whether it is the euro.
    public var isEuro: Bool { text == "EUR" }

    public var description: String { text }

    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.text < rhs.text }

    /// Decoded from its text; a text that is not a code is a decoding error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = CurrencyCode(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a currency code (three letters, A to Z)")
        }
        self = code
    }

    /// Encoded as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
