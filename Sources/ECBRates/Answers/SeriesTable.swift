import EurofxrefFeed
import Foundation

/// Rates of one or more currencies, day by day.
public struct SeriesTable: Sendable, Equatable {
    /// The currency codes, in the order asked for: the columns.
    public let currencies: [String]
    /// One row per day that has a rate for any of the currencies, oldest first.
    public let rows: [Row]
    /// Business days in the range whose rates are out but not stored (asked for with
    /// `partial`): empty when the table is complete.
    public var missing: [CalendarDay] = []
    /// What the rates are quoted against: `EUR` (the published rates), or another currency
    /// (each value is then that day's cross rate).
    public var base = "EUR"
    /// For a grouped series: the period of each row (a week from Monday, a month), and the
    /// figure each row holds (the mean of its rates, or the first, last, lowest or highest).
    public var grouping: Grouping?

    /// How a grouped series' rows were made.
    public struct Grouping: Sendable, Equatable {
        /// One row per week or month.
        public let period: SeriesGrouper.Period
        /// The figure of each row.
        public let statistic: SeriesGrouper.Statistic

        /// Rows of `statistic` per `period`.
        public init(period: SeriesGrouper.Period, statistic: SeriesGrouper.Statistic) {
            self.period = period
            self.statistic = statistic
        }
    }

    /// A table of `rows`; `missing` lists the days it lacks.
    public init(currencies: [String], rows: [Row], missing: [CalendarDay] = [], base: String = "EUR") {
        self.currencies = currencies
        self.rows = rows
        self.missing = missing
        self.base = base
    }

    /// One day of a series.
    public struct Row: Sendable, Equatable {
        /// The day.
        public let day: CalendarDay
        /// The rates, in the order of `currencies`; nil where a currency has none that day.
        public let rates: [Decimal?]
        /// For a row of a grouped series: the publications its figures were made of (a yearly
        /// average is the mean of that many days); nil for a day's row.
        public var days: Int?
        /// For a row of a grouped series: per currency, the days its figure was made of (fewer
        /// than ``days`` for a currency without a rate on some of them: one that ended, or paused).
        public var counts: [Int]?

        /// A row of `rates` on `day` (a group of `days` publications, for a grouped series).
        public init(day: CalendarDay, rates: [Decimal?], days: Int? = nil) {
            self.day = day
            self.rates = rates
            self.days = days
        }
    }
}
