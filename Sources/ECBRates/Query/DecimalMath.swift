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

    /// What the text of an amount spells.
    public enum AmountText: Equatable, Sendable {
        /// A number, kept exactly.
        case value(Decimal)
        /// Not `-`, digits, optionally `.` and digits.
        case notANumber
        /// A number of more than ``amountDigits`` significant digits.
        case tooManyDigits
    }

    /// An amount as a user writes it: `-`, digits, optionally `.` and digits, with at most
    /// ``amountDigits`` significant digits (so that it is kept, and multiplied, exactly).
    public static func amount(_ text: String) -> AmountText {
        var digits = 0, trailingZeros = 0, sawDigit = false, sawPoint = false, digitAfterPoint = false
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                if sawPoint { digitAfterPoint = true }
                if digits > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                trailingZeros = byte == UInt8(ascii: "0") && sawPoint ? trailingZeros + 1 : 0
            case UInt8(ascii: ".") where !sawPoint && sawDigit: sawPoint = true
            case UInt8(ascii: "-") where index == 0: break
            default: return .notANumber
            }
        }
        guard sawDigit, !sawPoint || digitAfterPoint, let value = DecimalText.parse(text) else { return .notANumber }
        // Zeros that end the fraction are not significant.
        return digits - min(trailingZeros, digits) <= amountDigits ? .value(value) : .tooManyDigits
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
        // The place of the leading digit: 0 for 1.x, -5 for 0.00006x, 4 for 15674.x.
        let leading = magnitude(of: value)
        return round(value, places: max(0, digits - 1 - leading))
    }

    /// The power of ten of `value`'s leading digit (`1.26` → 0, `0.000063` → -5, `15674` → 4).
    public static func magnitude(of value: Decimal) -> Int {
        if let (significand, exponent) = DecimalText.wideParts(of: value) {
            var count = 0, rest = significand
            while rest > 0 { rest /= 10; count += 1 }
            return count - 1 + exponent
        }
        let text = DecimalText.format(value.magnitude)
        if text.hasPrefix("0.") { return -1 - text.dropFirst(2).prefix { $0 == "0" }.count }
        return text.prefix { $0 != "." }.count - 1
    }

    /// The number of significant digits of `value` (`1.0800` has 3; `0.000063` has 2).
    public static func significantDigits(_ value: Decimal) -> Int {
        if value.isZero { return 0 }
        if let (significand, _) = DecimalText.wideParts(of: value) {
            var rest = significand
            while rest % 10 == 0 { rest /= 10 }
            var count = 0
            while rest > 0 { rest /= 10; count += 1 }
            return count
        }
        let text = DecimalText.format(value).filter(\.isNumber).drop { $0 == "0" }
        return text.count
    }

    /// Digits before the point, 0 for a value below 1 (`15674.05` → 5).
    public static func integerDigits(_ value: Decimal) -> Int {
        max(0, magnitude(of: value) + 1)
    }

    // MARK: Integer fast path

    /// Three factors of a quotient (an amount and two rate terms; 1 where there is no amount).
    typealias Factors = (Decimal, Decimal, Decimal)
    /// Its two divisors.
    typealias Divisors = (Decimal, Decimal)

    /// A decimal as a signed 128-bit integer and a power of ten: `value = integer × 10^exponent`.
    struct Scaled {
        var integer: Int128
        var exponent: Int

        init?(_ value: Decimal) {
            if value.isZero {
                integer = 0
                exponent = 0
                return
            }
            guard let (significand, exponent) = DecimalText.wideParts(of: value), significand <= UInt128(Int128.max)
            else { return nil }
            integer = value.sign == .minus ? -Int128(significand) : Int128(significand)
            self.exponent = exponent
        }
    }

    /// Powers of ten that fit in 128 bits.
    static let powersOfTen: [Int128] = (0...38).map { exponent in
        (0..<exponent).reduce(Int128(1)) { product, _ in product * 10 }
    }

    /// The number of decimal digits of `value` (0 has 1).
    static func digitCount(_ value: Int128) -> Int {
        let magnitude = value.magnitude
        var count = 1
        while count < powersOfTen.count && UInt128(powersOfTen[count]) <= magnitude { count += 1 }
        return count
    }

    /// The product of `factors` over the product of `divisors`, rounded once, half away from
    /// zero, to `places` decimal places: exactly, in 128-bit integers, when every intermediate
    /// fits (the usual case: an amount of up to 16 digits and rates of up to 10); nil when one
    /// does not, and the caller takes Foundation's `Decimal` arithmetic instead.
    static func roundedQuotient(_ factors: Factors, over divisors: Divisors, places: Int) -> Decimal? {
        roundedQuotientScaled(factors, over: divisors, places: places).flatMap { decimal($0, exponent: -places) }
    }

    /// ``roundedQuotient(_:over:places:)`` as an integer of units of 10^-places.
    static func roundedQuotientScaled(_ factors: Factors, over divisors: Divisors, places: Int) -> Int128? {
        guard let (top, bottom, shift) = scaledFraction(factors, over: divisors, places: places) else { return nil }
        return roundedDivision(top, bottom, shift: shift)
    }

    /// The quotient to `digits` significant digits (integer digits never dropped), like
    /// ``significant(_:digits:)`` of the exact quotient; nil when 128 bits do not suffice.
    static func significantQuotient(_ factors: Factors, over divisors: Divisors, digits: Int) -> Decimal? {
        significantQuotientScaled(factors, over: divisors, digits: digits).flatMap {
            decimal($0.integer, exponent: $0.exponent)
        }
    }

    /// ``significantQuotient(_:over:digits:)`` as an integer and a power of ten.
    static func significantQuotientScaled(
        _ factors: Factors, over divisors: Divisors, digits: Int
    ) -> (integer: Int128, exponent: Int)? {
        guard let (top, bottom, shift) = scaledFraction(factors, over: divisors, places: 0) else { return nil }
        guard top != 0 else { return (0, 0) }
        // The leading digit's power of ten, estimated from the digit counts, then checked.
        var places = digits - 1 - (digitCount(top) - digitCount(bottom) + shift)
        for _ in 0..<3 {
            let used = max(0, places)
            guard let quotient = roundedDivision(top, bottom, shift: shift + used) else { return nil }
            let count = digitCount(quotient)
            if count > digits && used > 0 { places -= 1; continue }  // the estimate was a digit short
            if count < digits && used == places { places += 1; continue }  // a digit over
            return (quotient, -used)
        }
        return nil
    }

    /// The factors and divisors multiplied out: top / bottom × 10^shift is the quotient scaled
    /// by 10^places.
    private static func scaledFraction(
        _ factors: Factors, over divisors: Divisors, places: Int
    ) -> (Int128, Int128, Int)? {
        var top: Int128 = 1, bottom: Int128 = 1, exponent = places
        // Unrolled: a conversion makes this call once a row, and arrays would cost two allocations.
        func multiply(_ value: Decimal, into product: inout Int128, sign: Int) -> Bool {
            guard let scaled = Scaled(value) else { return false }
            let (result, overflow) = product.multipliedReportingOverflow(by: scaled.integer)
            guard !overflow else { return false }
            product = result
            exponent += sign * scaled.exponent
            return true
        }
        guard multiply(factors.0, into: &top, sign: 1), multiply(factors.1, into: &top, sign: 1),
            multiply(factors.2, into: &top, sign: 1),
            multiply(divisors.0, into: &bottom, sign: -1), multiply(divisors.1, into: &bottom, sign: -1), bottom != 0
        else { return nil }
        return (top, bottom, exponent)
    }

    /// top × 10^shift / bottom, rounded half away from zero; nil on overflow.
    private static func roundedDivision(_ top: Int128, _ bottom: Int128, shift: Int) -> Int128? {
        var top = top, bottom = bottom
        if shift > 0 {
            guard shift < powersOfTen.count else { return nil }
            let (product, overflow) = top.multipliedReportingOverflow(by: powersOfTen[shift])
            guard !overflow else { return nil }
            top = product
        } else if shift < 0 {
            guard -shift < powersOfTen.count else { return top == 0 ? 0 : nil }
            let (product, overflow) = bottom.multipliedReportingOverflow(by: powersOfTen[-shift])
            guard !overflow else { return nil }
            bottom = product
        }
        let (quotient, remainder) = top.quotientAndRemainder(dividingBy: bottom)
        // Half away from zero: |remainder| ≥ |bottom| / 2, compared without overflow.
        let twice = remainder.magnitude.multipliedReportingOverflow(by: 2)
        if twice.overflow || twice.partialValue >= bottom.magnitude {
            return quotient + ((top < 0) != (bottom < 0) ? -1 : 1)
        }
        return quotient
    }

    /// `integer` × 10^`exponent` as a Decimal (exact: at most 38 digits).
    private static func decimal(_ integer: Int128, exponent: Int) -> Decimal? {
        let sign: FloatingPointSign = integer < 0 ? .minus : .plus
        if let magnitude = UInt64(exactly: integer.magnitude) {
            return Decimal(sign: sign, exponent: exponent, significand: Decimal(magnitude))
        }
        // Above 64 bits: the digits above the 19th, shifted, plus the 19 below (one exact add).
        let (high, low) = integer.magnitude.quotientAndRemainder(dividingBy: UInt128(powersOfTen[19]))
        guard let top = UInt64(exactly: high) else { return nil }
        var upper = Decimal(sign: .plus, exponent: 19, significand: Decimal(top)), lower = Decimal(UInt64(low)),
            sum = Decimal()
        guard NSDecimalAdd(&sum, &upper, &lower, .plain) == .noError else { return nil }
        return Decimal(sign: sign, exponent: exponent, significand: sum)
    }
}
