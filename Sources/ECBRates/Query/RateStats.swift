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
    public let first: (day: CalendarDay, rate: Decimal)
    /// The last published rate in the range, and its day.
    public let last: (day: CalendarDay, rate: Decimal)
    /// The lowest rate, and the first day it was published.
    public let minimum: (day: CalendarDay, rate: Decimal)
    /// The highest rate, and the first day it was published.
    public let maximum: (day: CalendarDay, rate: Decimal)
    /// The mean of the published rates, unrounded (38 significant digits).
    public let mean: Decimal
    /// (last - first) / first, in percent, to 2 decimal places.
    public let changePercent: Decimal
    /// Business days in the range whose rates are out but not stored (with `partial`).
    public var missing: [CalendarDay] = []
    /// What the rates are quoted against (`EUR`, or another currency: cross rates).
    public var base = "EUR"

    /// Equal when every figure is (tuples are compared by their parts).
    public static func == (lhs: RateStats, rhs: RateStats) -> Bool {
        lhs.currency == rhs.currency && lhs.from == rhs.from && lhs.to == rhs.to && lhs.days == rhs.days
            && lhs.first == rhs.first && lhs.last == rhs.last && lhs.minimum == rhs.minimum && lhs.maximum == rhs.maximum
            && lhs.mean == rhs.mean && lhs.changePercent == rhs.changePercent && lhs.missing == rhs.missing && lhs.base == rhs.base
    }
}
