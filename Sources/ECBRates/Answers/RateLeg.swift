import EurofxrefFeed
import Foundation

/// One currency's side of an answer: its rate per euro on a day, as published, or interpolated
/// between two published days. A cross rate has two legs (the currency's and the base's), each
/// found by the fallback on its own.
public struct RateLeg: Sendable, Equatable {
    /// A rate as the ECB published it.
    public struct Published: Sendable, Equatable {
        /// The day of publication.
        public let day: CalendarDay
        /// Units of the currency per euro, exactly as published.
        public let perEuro: Decimal
    }

    /// The currency (`EUR` for the euro's own leg, whose rate is 1).
    public let currency: String
    /// The day of the rate: the day published, or, interpolated, the day asked for.
    public let day: CalendarDay
    /// The published rate it comes from (for an interpolation, the one before).
    public let source: Published
    /// For an interpolation, the published rate after.
    public let otherSource: Published?
    /// The published rates it comes from: one, or the two an interpolation lies between.
    public var sources: [Published] { otherSource.map { [source, $0] } ?? [source] }
    /// Units of the currency per euro, exactly `numerator / denominator`.
    let numerator: Decimal
    let denominator: Decimal
    /// For a currency the euro replaced, the irrevocable conversion rate the leg is (its
    /// ``source`` is that rate, on the day it began to apply).
    public var fixedRate: EuroConversionRate? = nil

    /// The euro's leg on `day`: 1.
    static func euro(on day: CalendarDay) -> RateLeg {
        RateLeg(
            currency: "EUR", day: day, source: Published(day: day, perEuro: 1), otherSource: nil, numerator: 1,
            denominator: 1)
    }

    /// A published rate.
    static func published(_ currency: String, _ perEuro: Decimal, on day: CalendarDay) -> RateLeg {
        RateLeg(
            currency: currency, day: day, source: Published(day: day, perEuro: perEuro), otherSource: nil,
            numerator: perEuro,
            denominator: 1)
    }

    /// The euro's irrevocable conversion rate of a currency it replaced, on `day`.
    static func fixed(_ rate: EuroConversionRate, on day: CalendarDay) -> RateLeg {
        RateLeg(
            currency: rate.currency, day: day, source: Published(day: rate.since, perEuro: rate.perEuro),
            otherSource: nil, numerator: rate.perEuro, denominator: 1, fixedRate: rate)
    }

    /// The straight line between two published rates, read at `day`: kept as one fraction
    /// (before × (span − offset) + after × offset) / span, so nothing is rounded yet.
    static func interpolated(
        _ currency: String, on day: CalendarDay, before: Published, after: Published
    ) throws -> RateLeg {
        let span = after.day.days(since: before.day), offset = day.days(since: before.day)
        let numerator =
            try DecimalMath.multiply(before.perEuro, Decimal(span - offset))
            + DecimalMath.multiply(after.perEuro, Decimal(offset))
        return RateLeg(
            currency: currency, day: day, source: before, otherSource: after, numerator: numerator,
            denominator: Decimal(span))
    }

    /// Units of the currency per euro (to 38 significant digits when interpolated).
    public var perEuro: Decimal {
        denominator == 1 ? numerator : ((try? DecimalMath.divide(numerator, denominator)) ?? numerator / denominator)
    }

    /// For an interpolated rate, the published days on either side.
    public var interpolatedBetween: [CalendarDay]? { otherSource.map { [source.day, $0.day] } }

    /// True when the rate is the ECB's own, not interpolated.
    public var isPublished: Bool { otherSource == nil }
}
