import Foundation
import ManagedStore

/// How numbers are written: published rates exactly as the ECB wrote them (less trailing
/// zeros); derived values (cross rates, interpolations, means) to 6 significant digits for
/// people and 20 for programs, never to a fixed count of decimals; amounts with exactly their
/// decimal places.
public enum NumberText {
    /// Significant digits of a derived value in text for people.
    public static let peopleDigits = 6
    /// Significant digits of a derived value in JSON and CSV: enough to recompute any amount to
    /// the cent (JSON also carries each leg's published rates, exactly).
    public static let machineDigits = 20

    /// `value` exactly (`1.0811`).
    public static func exact(_ value: Decimal) -> String { DecimalText.format(value) }

    /// A derived value to `digits` significant digits; for people (`padded`), trailing zeros
    /// are kept (`1.26430`), so that the digits shown say how many were kept.
    public static func derived(_ value: Decimal, digits: Int, padded: Bool = true) -> String {
        let rounded = DecimalMath.significant(value, digits: digits)
        var text = DecimalText.format(rounded)
        let shown = DecimalMath.significantDigits(rounded)
        guard padded, shown < digits, DecimalMath.integerDigits(rounded) < digits else { return text }
        if !text.contains(".") { text += "." }
        return text + String(repeating: "0", count: digits - max(shown, DecimalMath.integerDigits(rounded)))
    }

    /// A value exactly (a published rate), or, `derived`, to 6 significant digits for people
    /// and 20 for programs (`machine`).
    public static func figure(_ value: Decimal, derived isDerived: Bool, machine: Bool) -> String {
        guard isDerived else { return exact(value) }
        return machine ? derived(value, digits: machineDigits, padded: false) : derived(value, digits: peopleDigits)
    }

    /// The rate of an answer for people: exact when the ECB published it, else 6 digits.
    public static func rate(_ answer: RateAnswer) -> String {
        isPublished(answer)
            ? exact(answer.rate) : derived(answer.rate(significantDigits: peopleDigits), digits: peopleDigits)
    }

    /// The rate of an answer for programs: exact when the ECB published it, else 20 digits.
    public static func machineRate(_ answer: RateAnswer) -> String {
        isPublished(answer) ? exact(answer.rate) : exact(answer.rate(significantDigits: machineDigits))
    }

    /// A derived value for programs, as a JSON number.
    public static func machine(_ value: Decimal) -> JSONText {
        .raw(derived(value, digits: machineDigits, padded: false))
    }

    /// True when the rate is the ECB's own figure: a published rate against the euro.
    public static func isPublished(_ answer: RateAnswer) -> Bool {
        answer.base == "EUR" && answer.currencyLeg.isPublished
    }

    /// `value` as text with exactly `places` decimals (`12.50`, `15700`, `-3.10`).
    public static func text(_ value: Decimal, places: Int) -> String {
        let text = DecimalText.format(value)
        guard places > 0 else { return text }
        guard let point = text.firstIndex(of: ".") else { return text + "." + String(repeating: "0", count: places) }
        let fraction = text.distance(from: point, to: text.endIndex) - 1
        return text + String(repeating: "0", count: max(0, places - fraction))
    }

    /// `integer` × 10^`exponent` as text: exactly `places` decimals when given, else the
    /// canonical text (no trailing zeros in the fraction).
    static func text(_ integer: Int128, exponent: Int, places: Int? = nil) -> String {
        // Digits, least significant first (at most 39), then written out with the point placed.
        var reversed: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &reversed) { digitBytes -> String in
            var magnitude = integer.magnitude
            var count = 0
            repeat {
                let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
                digitBytes[count] = UInt8(ascii: "0") + UInt8(digit)
                magnitude = quotient
                count += 1
            } while magnitude > 0
            var exponent = exponent
            var skip = 0
            if places == nil {
                // Canonical: no trailing zeros in the fraction.
                while exponent < 0, count - skip > 1, digitBytes[skip] == UInt8(ascii: "0") { skip += 1; exponent += 1 }
                if integer == 0 { return "0" }
            }
            return DecimalText.plainText(
                reversedDigits: UnsafeRawBufferPointer(rebasing: digitBytes[skip..<count]), exponent: exponent,
                negative: integer < 0)
        }
    }
}
