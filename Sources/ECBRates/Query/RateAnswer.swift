import EurofxrefFeed
import Foundation

/// A rate as a query found it: the value, the day it is from, and why that day when it is not
/// the day asked for.
public struct RateAnswer: Sendable, Equatable {
    /// The currency quoted.
    public let currency: String
    /// What it is quoted against (`EUR`, or another currency for a cross rate).
    public let base: String
    /// Units of `currency` per unit of `base`.
    public let rate: Decimal
    /// The published rate of `currency` it comes from, per EUR (1 for EUR itself).
    public let currencyPerEuro: Decimal
    /// The published rate of `base` it comes from, per EUR (1 for EUR itself).
    public let basePerEuro: Decimal
    /// The day of the rate (for an interpolated rate: the day asked for).
    public let day: CalendarDay
    /// The day asked for, when the rate is from another day or interpolated.
    public let asked: CalendarDay?
    /// Why the day asked for has no rate of its own ("a Saturday", "Good Friday", …).
    public let reason: String?
    /// For an interpolated rate: the published days on either side.
    public let interpolatedBetween: [CalendarDay]?
}
