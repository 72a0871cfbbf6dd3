import ECBRates
import Foundation
import ManagedStore

/// How numbers are written: published rates exactly as the ECB wrote them (less trailing
/// zeros); derived values (cross rates, interpolations, means) to 6 significant digits for
/// people and 20 for programs, never to a fixed count of decimals; amounts with exactly their
/// decimal places.
enum NumberText {
    /// Significant digits of a derived value in text for people.
    static let peopleDigits = 6
    /// Significant digits of a derived value in JSON and CSV: enough to recompute any amount to
    /// the cent (JSON also carries each leg's published rates, exactly).
    static let machineDigits = 20

    /// `value` exactly (`1.0811`).
    static func exact(_ value: Decimal) -> String { DecimalText.format(value) }

    /// A derived value to `digits` significant digits; for people (`padded`), trailing zeros
    /// are kept (`1.26430`), so that the digits shown say how many were kept.
    static func derived(_ value: Decimal, digits: Int, padded: Bool = true) -> String {
        let rounded = DecimalMath.significant(value, digits: digits)
        var text = DecimalText.format(rounded)
        let shown = DecimalMath.significantDigits(rounded)
        guard padded, shown < digits, DecimalMath.integerDigits(rounded) < digits else { return text }
        if !text.contains(".") { text += "." }
        return text + String(repeating: "0", count: digits - max(shown, DecimalMath.integerDigits(rounded)))
    }

    /// A value exactly (a published rate), or, `derived`, to 6 significant digits for people
    /// and 20 for programs (`machine`).
    static func figure(_ value: Decimal, derived isDerived: Bool, machine: Bool) -> String {
        guard isDerived else { return exact(value) }
        return machine ? derived(value, digits: machineDigits, padded: false) : derived(value, digits: peopleDigits)
    }

    /// The rate of an answer for people: exact when the ECB published it, else 6 digits.
    static func rate(_ answer: RateAnswer) -> String {
        isPublished(answer) ? exact(answer.rate) : derived(answer.rate(significantDigits: peopleDigits), digits: peopleDigits)
    }

    /// The rate of an answer for programs: exact when the ECB published it, else 20 digits.
    static func machineRate(_ answer: RateAnswer) -> String {
        isPublished(answer) ? exact(answer.rate) : exact(answer.rate(significantDigits: machineDigits))
    }

    /// A derived value for programs, as a JSON number.
    static func machine(_ value: Decimal) -> JSONText { .raw(derived(value, digits: machineDigits, padded: false)) }

    /// True when the rate is the ECB's own figure: a published rate against the euro.
    static func isPublished(_ answer: RateAnswer) -> Bool {
        answer.base == "EUR" && answer.currencyLeg.isPublished
    }
}
