import Foundation
import ManagedStore

/// The arithmetic of answers: exact products, one division, one rounding.
///
/// Foundation's `Decimal` holds 38 significant digits. A product of a user's amount (refused
/// beyond 28 significant digits) and a rate's numerator (at most 10) is exact, and
/// ``multiply(_:_:)`` throws rather than round when it is not. A quotient is the only inexact
/// step; it is then rounded once, to minor units or significant digits. Rounding is half away
/// from zero ("commercial rounding", the rule of the euro changeover regulation, EC 1103/97
/// art. 5), everywhere.
public enum DecimalMath {
    /// Significant digits an amount may have, so that every product stays exact.
    public static let amountDigits = 28

    /// `a × b`, exactly, or ``QueryError/inexact(_:)``.
    static func multiply(_ a: Decimal, _ b: Decimal) throws -> Decimal {
        var left = a, right = b, result = Decimal()
        let status = NSDecimalMultiply(&result, &left, &right, .plain)
        guard status == .noError else { throw QueryError.inexact("\(a) × \(b)") }
        return result
    }

    /// `a ÷ b` to 38 significant digits (the only rounding before the final one).
    ///
    /// Why the final rounding cannot be pushed across a half by this one: a quotient of two
    /// decimals with at most 38 digits and denominators below 10^12 differs from a half-unit
    /// boundary by at least 10^-20 of its size, and 38 digits are exact to 10^-37.
    static func divide(_ a: Decimal, _ b: Decimal) throws -> Decimal {
        var left = a, right = b, result = Decimal()
        let status = NSDecimalDivide(&result, &left, &right, .plain)
        guard status == .noError || status == .lossOfPrecision else { throw QueryError.inexact("\(a) ÷ \(b)") }
        return result
    }

    /// `value` rounded half away from zero to `places` decimal places.
    public static func round(_ value: Decimal, places: Int) -> Decimal {
        var input = value, output = Decimal()
        NSDecimalRound(&output, &input, places, .plain)
        return output
    }

    /// `value` rounded half away from zero to `digits` significant digits (integer digits are
    /// never dropped: 15674.4 to 3 digits is 15674).
    public static func significant(_ value: Decimal, digits: Int) -> Decimal {
        guard !value.isZero, value.isFinite else { return value }
        return round(value, places: max(0, digits - integerDigits(value) + leadingFractionZeros(value)))
    }

    /// The number of significant digits of `value` (`1.0800` has 3; `0.000063` has 2).
    public static func significantDigits(_ value: Decimal) -> Int {
        let text = DecimalText.format(value).filter(\.isNumber).drop { $0 == "0" }
        return text.count
    }

    /// Digits before the point, 0 for a value below 1 (`15674.05` → 5).
    public static func integerDigits(_ value: Decimal) -> Int {
        let text = DecimalText.format(value.magnitude)
        let integer = text.prefix { $0 != "." }
        return integer == "0" ? 0 : integer.count
    }

    /// Zeros between the point and the first significant digit of a value below 1
    /// (`0.000063` → 4).
    public static func leadingFractionZeros(_ value: Decimal) -> Int {
        let text = DecimalText.format(value.magnitude)
        guard text.hasPrefix("0.") else { return 0 }
        return text.dropFirst(2).prefix { $0 == "0" }.count
    }
}
