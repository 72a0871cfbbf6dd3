import EurofxrefFeed
import Foundation

/// Rates of one or more currencies, day by day.
public struct SeriesTable: Sendable, Equatable {
    /// The currency codes, in the order asked for: the columns.
    public let currencies: [String]
    /// One row per day that has a rate for any of the currencies, oldest first.
    public let rows: [Row]

    /// One day of a series.
    public struct Row: Sendable, Equatable {
        /// The day.
        public let day: CalendarDay
        /// The rates, in the order of `currencies`; nil where a currency has none that day.
        public let rates: [Decimal?]
    }
}
