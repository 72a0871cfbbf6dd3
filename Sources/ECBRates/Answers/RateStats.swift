import EurofxrefFeed
import Foundation

/// The figures of one currency over a range of days.
public struct RateStats: Sendable, Equatable {
    /// The currency code.
    public let currency: String
    /// The first day of the range asked for.
    public let from: CalendarDay
    /// The last day of the range asked for.
    public let to: CalendarDay
    /// The days in the range with a rate.
    public let days: Int
    /// The first published rate in the range, and its day.
    public let first: DatedRate
    /// The last published rate in the range, and its day.
    public let last: DatedRate
    /// The lowest rate, and the first day it was published.
    public let minimum: DatedRate
    /// The highest rate, and the first day it was published.
    public let maximum: DatedRate
    /// The mean of the published rates, unrounded (38 significant digits).
    public let mean: Decimal
    /// (last - first) / first, in percent, to 2 decimal places.
    public let changePercent: Decimal
    /// Business days in the range whose rates are out but not stored (with `partial`).
    public var missing: [CalendarDay] = []
    /// What the rates are quoted against (`EUR`, or another currency: cross rates).
    public var base = "EUR"
}

/// A rate and its day.
public struct DatedRate: Sendable, Equatable {
    /// The day.
    public let day: CalendarDay
    /// The rate that day.
    public let rate: Decimal
}
