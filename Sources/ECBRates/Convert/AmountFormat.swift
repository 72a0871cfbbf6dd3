import Foundation

/// How the amounts of a CSV are written, named by an example of it: the decimal separator and
/// the thousands separator, if any. `1234.56` (the default) takes a point for the decimals and
/// no grouping; the others are what spreadsheets write across the world:
///
/// | format     | reads                         | where                          |
/// |------------|-------------------------------|--------------------------------|
/// | `1234.56`  | `1234.56`, `-3.10`            | programs, the default          |
/// | `1,234.56` | `1,234.56`, `1234.56`         | the UK, the US                 |
/// | `1'234.56` | `1'234.56`, `1234.56`         | Switzerland                    |
/// | `1.234,56` | `1.234,56`, `1 234,56`, `1234,56` | Germany, France, Italy, Spain… |
/// | `1234,56`  | `1234,56`                     | a decimal comma, no grouping   |
///
/// Groups, when written, are of three digits after the first (of one to three), with one
/// separator throughout. An amount that does not fit the format is refused, never guessed; and
/// without a named format, an amount that could be read two ways (`1,234`, `1.234,56`, or
/// `1.234` in a semicolon-separated file, where the point is most likely a thousands
/// separator) is refused as ambiguous.
public enum AmountFormat: String, Sendable, CaseIterable, FieldChoice {
    case plain = "1234.56"
    case commaGrouped = "1,234.56"
    case apostropheGrouped = "1'234.56"
    case decimalCommaGrouped = "1.234,56"
    case decimalComma = "1234,56"

    /// The decimal separator.
    public var decimalSeparator: Character { rawValue.hasSuffix(",56") ? "," : "." }

    /// The thousands separators it takes (none: no grouping).
    var groupSeparators: Set<Character> {
        switch self {
        case .plain, .decimalComma: []
        case .commaGrouped: [","]
        case .apostropheGrouped: ["'", "’"]
        // A point, or a space (also no-break and narrow no-break, as French spreadsheets write).
        case .decimalCommaGrouped: [".", " ", "\u{00A0}", "\u{202F}"]
        }
    }

    /// What reading an amount gave.
    public enum Reading: Sendable, Equatable {
        /// The amount, and its text with a point for the decimals and no grouping (`1234.56`).
        case value(Decimal, plain: String)
        /// Not a number in this format (`expected` says what is).
        case notANumber
        /// More significant digits than a conversion keeps exact.
        case tooManyDigits
        /// Readable two ways, with no format named: why.
        case ambiguous(String)
    }

    /// `text` read in this format. `named`: whether the user named it (without, an amount that
    /// another format would read otherwise is ambiguous); `semicolons`: the file is
    /// semicolon-separated.
    public func read(_ text: String, named: Bool, semicolons: Bool) -> Reading {
        if !named {
            if text.contains(",") {
                return .ambiguous("its comma may be a decimal comma or a thousands separator")
            }
            if semicolons, text.wholeMatch(of: /-?[0-9]{1,3}(\.[0-9]{3})+/) != nil {
                return .ambiguous(
                    "in a semicolon-separated file, a point before three digits is most likely a thousands separator")
            }
        }
        guard let plain = plainText(text) else { return .notANumber }
        switch DecimalMath.amount(plain) {
        case .value(let value): return .value(value, plain: plain)
        case .notANumber: return .notANumber
        case .tooManyDigits: return .tooManyDigits
        }
    }

    /// `text` with a point for the decimals and its grouping taken out, when it fits the format.
    func plainText(_ text: String) -> String? {
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: decimalSeparator, maxSplits: 1, omittingEmptySubsequences: false)
        guard let integer = parts.first, !integer.isEmpty else { return nil }
        let fraction = parts.count == 2 ? parts[1] : nil
        if let fraction, fraction.isEmpty || !fraction.allSatisfy(\.isASCIIDigit) { return nil }
        var digits = ""
        if integer.allSatisfy(\.isASCIIDigit) {
            digits = String(integer)
        } else {
            // Grouped: one separator throughout, groups of three after the first.
            guard let separator = integer.first(where: { !$0.isASCIIDigit }), groupSeparators.contains(separator)
            else { return nil }
            let groups = integer.split(separator: separator, omittingEmptySubsequences: false)
            guard let first = groups.first, (1...3).contains(first.count),
                groups.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
                groups.dropFirst().allSatisfy({ $0.count == 3 })
            else { return nil }
            digits = groups.joined()
        }
        return (negative ? "-" : "") + digits + (fraction.map { "." + $0 } ?? "")
    }

    /// `number` (written with a point) as this format writes it, without grouping: `1234,56`.
    public func write(_ number: String) -> String {
        decimalSeparator == "," ? number.replacingOccurrences(of: ".", with: ",") : number
    }
}

extension Character {
    /// `0` to `9`.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
