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
    /// The published rates it comes from, per EUR (1 for EUR itself).
    public let currencyPerEuro: Decimal
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

/// An amount converted at a rate.
public struct ConversionAnswer: Sendable, Equatable {
    public let amount: Decimal
    /// The amount in `rate.currency`, rounded to its minor units or the precision asked for.
    public let result: Decimal
    /// The rate used: units of the target currency per unit of the source.
    public let rate: RateAnswer
    /// Decimal places of `result`.
    public let places: Int
}

/// Rates of one or more currencies, day by day.
public struct SeriesTable: Sendable, Equatable {
    public let currencies: [String]
    /// One row per day that has a rate for any of the currencies, oldest first.
    public let rows: [Row]

    public struct Row: Sendable, Equatable {
        public let day: CalendarDay
        /// The rates, in the order of `currencies`; nil where a currency has none that day.
        public let rates: [Decimal?]
    }
}

/// The figures of one currency over a range of days.
public struct RateStats: Sendable, Equatable {
    public let currency: String
    public let from: CalendarDay
    public let to: CalendarDay
    public let days: Int
    public let first: (day: CalendarDay, rate: Decimal)
    public let last: (day: CalendarDay, rate: Decimal)
    public let minimum: (day: CalendarDay, rate: Decimal)
    public let maximum: (day: CalendarDay, rate: Decimal)
    /// The mean of the published rates, to 6 decimal places.
    public let mean: Decimal
    /// (last - first) / first, in percent, to 2 decimal places.
    public let changePercent: Decimal

    public static func == (lhs: RateStats, rhs: RateStats) -> Bool {
        lhs.currency == rhs.currency && lhs.from == rhs.from && lhs.to == rhs.to && lhs.days == rhs.days
            && lhs.first == rhs.first && lhs.last == rhs.last && lhs.minimum == rhs.minimum && lhs.maximum == rhs.maximum
            && lhs.mean == rhs.mean && lhs.changePercent == rhs.changePercent
    }
}

/// A currency the store holds, and when.
public struct CurrencySummary: Sendable, Equatable {
    public let code: String
    public let firstDay: CalendarDay
    public let lastDay: CalendarDay
    public let rates: Int
}

/// The rates of the newest day.
public struct LatestRates: Sendable, Equatable {
    public let day: CalendarDay
    public let rates: [(currency: String, rate: Decimal)]
    /// Currencies asked for that have no rate that day, with their last day.
    public let missing: [(currency: String, lastDay: CalendarDay?)]

    public static func == (lhs: LatestRates, rhs: LatestRates) -> Bool {
        lhs.day == rhs.day && lhs.rates.elementsEqual(rhs.rates, by: ==) && lhs.missing.elementsEqual(rhs.missing, by: ==)
    }
}

/// What the store holds, how fresh it is, and how the last import ended.
public struct StoreStatus: Sendable {
    public let firstDay: CalendarDay?
    public let lastDay: CalendarDay?
    public let rates: Int
    public let days: Int
    public let currencies: Int
    /// The newest business day whose rates should be out now.
    public let dueDay: CalendarDay
    /// Business days after `lastDay` up to `dueDay`: rates the store lacks.
    public let missingBusinessDays: [CalendarDay]
    /// Calendar days from `lastDay` to `dueDay` (0 when up to date).
    public let ageDays: Int
    public let lastRun: ImportRunSummary?

    /// True when the store has the rates of every business day that should be out.
    public var isUpToDate: Bool { lastDay != nil && missingBusinessDays.isEmpty }
}

/// The last import run, as `status` shows it.
public struct ImportRunSummary: Sendable {
    public let source: String
    public let startedAt: Date
    public let finishedAt: Date?
    public let outcome: String
    public let rates: Int
    public let inserted: Int
    public let corrected: Int
    public let error: String?
    public let processID: Int
}
