import EurofxrefFeed
import Foundation
import ManagedStore

/// A rate as a query found it: the value, the day it is from, and why that day when it is not
/// the day asked for. A cross rate is made of two legs (each currency per euro), each found on
/// its own; ``rate`` is their quotient, unrounded (38 significant digits).
public struct RateAnswer: Sendable, Equatable {
    /// The currency quoted.
    public let currency: String
    /// What it is quoted against (`EUR`, or another currency for a cross rate).
    public let base: String
    /// Units of `currency` per unit of `base`: exact for a published rate against the euro, else
    /// the quotient of the legs to 38 significant digits. Round it only to show it (computed
    /// when asked for: a conversion needs only the legs).
    public var rate: Decimal {
        // Cannot fail: the legs' numerators have at most 20 digits and denominators 2.
        (try? Self.quotient(currencyLeg, baseLeg, times: 1)) ?? currencyLeg.perEuro / baseLeg.perEuro
    }
    /// The currency's leg: its rate per euro and where that comes from.
    public let currencyLeg: RateLeg
    /// The base's leg (the euro's, rate 1, when quoted against the euro).
    public let baseLeg: RateLeg
    /// The day of the rate (for an interpolated rate: the day asked for). For a cross rate
    /// whose legs come from different days, the currency's.
    public let day: CalendarDay
    /// The day asked for, when the rate is from another day or interpolated.
    public let asked: CalendarDay?
    /// Why the day asked for has no rate of its own ("a Saturday", "Good Friday", …).
    public let reason: String?

    /// For an interpolated rate: the published days on either side.
    public var interpolatedBetween: [CalendarDay]? { leadLeg.interpolatedBetween }
    /// The leg that is not the euro's (the currency's when neither is).
    public var leadLeg: RateLeg { currencyLeg.currency == "EUR" && baseLeg.currency != "EUR" ? baseLeg : currencyLeg }
    /// The legs that are not the euro's, currency first.
    public var legs: [RateLeg] { [currencyLeg, baseLeg].filter { $0.currency != "EUR" } }

    init(currencyLeg: RateLeg, baseLeg: RateLeg, asked: CalendarDay, reason: String?) {
        self.currencyLeg = currencyLeg
        self.baseLeg = baseLeg
        currency = currencyLeg.currency
        base = baseLeg.currency
        let lead = currencyLeg.currency == "EUR" && baseLeg.currency != "EUR" ? baseLeg : currencyLeg
        day = lead.day
        let exact = currencyLeg.isPublished && currencyLeg.day == asked && baseLeg.isPublished && baseLeg.day == asked
        self.asked = exact ? nil : asked
        // A fixed rate says so, whatever the day.
        let fixed = [currencyLeg, baseLeg].compactMap(\.fixedRate)
        self.reason =
            fixed.isEmpty
            ? (exact ? nil : reason)
            : fixed.count == 1
                ? fixed[0].explanation : fixed.map { "\($0.currency) \($0.explanation)" }.joined(separator: ", ")
    }

    /// `amount` × currency ÷ base, with one division: amount × cN × bD ÷ (cD × bN).
    static func quotient(_ currency: RateLeg, _ base: RateLeg, times amount: Decimal) throws -> Decimal {
        let top = try DecimalMath.multiply(DecimalMath.multiply(amount, currency.numerator), base.denominator)
        let bottom = try DecimalMath.multiply(currency.denominator, base.numerator)
        return bottom == 1 ? top : try DecimalMath.divide(top, bottom)
    }

    /// `amount` of `base` in `currency`, unrounded (38 significant digits).
    public func converting(_ amount: Decimal) throws -> Decimal {
        try Self.quotient(currencyLeg, baseLeg, times: amount)
    }

    /// `amount` of `base` in `currency`, rounded once, half away from zero, to `places`, in
    /// 128-bit integers; a result they cannot hold (38 digits) is refused, never rounded from
    /// a rounded quotient (``QueryError/tooManyDigits(conversion:places:most:)``).
    ///
    /// Between two currencies the euro replaced, through the euro as Regulation (EC) 1103/97
    /// (article 4) has it: the euro amount rounded to three decimals (``euroAmount(of:)``), then
    /// multiplied by the target's conversion rate and rounded.
    public func converting(_ amount: Decimal, places: Int) throws -> Decimal {
        if let euro = try euroAmount(of: amount) {
            guard
                let result = DecimalMath.roundedQuotient((euro, currencyLeg.numerator, 1), over: (1, 1), places: places)
            else { throw tooManyDigits(amount, places: places) }
            return result
        }
        if let exact = DecimalMath.roundedQuotient(
            (amount, currencyLeg.numerator, baseLeg.denominator),
            over: (currencyLeg.denominator, baseLeg.numerator), places: places)
        {
            return exact
        }
        throw tooManyDigits(amount, places: places)
    }

    /// Between two currencies the euro replaced (both legs fixed conversion rates): `amount` of
    /// the base in euro, rounded half up to three decimals, the step the regulation's
    /// triangulation goes through; nil for any other pair.
    public func euroAmount(of amount: Decimal) throws -> Decimal? {
        guard currencyLeg.fixedRate != nil, let base = baseLeg.fixedRate else { return nil }
        guard let euro = DecimalMath.roundedQuotient((amount, 1, 1), over: (base.perEuro, 1), places: 3) else {
            throw QueryError.inexact("\(DecimalText.format(amount)) \(self.base) in EUR")
        }
        return euro
    }

    /// The refusal of `amount` to `places`, naming the most places that fit.
    private func tooManyDigits(_ amount: Decimal, places: Int) -> QueryError {
        let fits = stride(from: places - 1, through: 0, by: -1).first { fewer in
            DecimalMath.roundedQuotientScaled(
                (amount, currencyLeg.numerator, baseLeg.denominator),
                over: (currencyLeg.denominator, baseLeg.numerator), places: fewer) != nil
        }
        return .tooManyDigits(
            conversion: "\(DecimalText.format(amount)) \(base) in \(currency)", places: places, most: fits)
    }

    /// ``converting(_:places:)`` as text with exactly `places` decimals (`12.50`, `-3.10`).
    func convertedText(_ amount: Decimal, places: Int) throws -> String {
        if try euroAmount(of: amount) != nil {
            return NumberText.text(try converting(amount, places: places), places: places)
        }
        if let units = DecimalMath.roundedQuotientScaled(
            (amount, currencyLeg.numerator, baseLeg.denominator),
            over: (currencyLeg.denominator, baseLeg.numerator), places: places)
        {
            return NumberText.text(units, exponent: -places, places: places)
        }
        throw tooManyDigits(amount, places: places)
    }

    /// ``rate(significantDigits:)`` as canonical text.
    func rateText(significantDigits digits: Int) -> String {
        if let (integer, exponent) = DecimalMath.significantQuotientScaled(
            (1, currencyLeg.numerator, baseLeg.denominator),
            over: (currencyLeg.denominator, baseLeg.numerator), digits: digits)
        {
            return NumberText.text(integer, exponent: exponent)
        }
        return DecimalText.format(rate(significantDigits: digits))
    }

    /// The rate to `digits` significant digits (exact when it has fewer), computed from the legs.
    public func rate(significantDigits digits: Int) -> Decimal {
        DecimalMath.significantQuotient(
            (1, currencyLeg.numerator, baseLeg.denominator), over: (currencyLeg.denominator, baseLeg.numerator),
            digits: digits) ?? DecimalMath.significant(rate, digits: digits)
    }
}
