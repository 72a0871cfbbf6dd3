import EurofxrefFeed
import Foundation

/// Rows of a series folded into one row per week or month, as they stream past: a period's
/// figure is the mean of its rates (or the first, last, lowest or highest), per currency. The
/// row's day is the period's first day (a Monday, or the 1st); memory is one period's worth.
///
/// ```swift
/// var grouper = SeriesGrouper(period: .month, statistic: .mean, columns: 2) { row in print(row) }
/// try queries.eachSeriesRow(["USD", "JPY"], from: start, to: end) { try grouper.add($0) }
/// try grouper.finish()
/// ```
public struct SeriesGrouper {
    /// The length of a period.
    public enum Period: String, Sendable, CaseIterable, FieldChoice {
        /// Monday to Sunday.
        case week
        /// A calendar month.
        case month
        /// A calendar quarter (January to March, …).
        case quarter
        /// A calendar year.
        case year

        /// The first day of the period `day` falls in.
        public func start(of day: CalendarDay) -> CalendarDay {
            switch self {
            case .week:
                // 1970-01-01 was a Thursday: days since it, shifted so that Monday is 0.
                let weekday = ((day.daysSince1970 + 3) % 7 + 7) % 7
                return day.adding(days: -weekday)
            case .month:
                return CalendarDay(year: day.year, month: day.month, day: 1)!
            case .quarter:
                return CalendarDay(year: day.year, month: (day.month - 1) / 3 * 3 + 1, day: 1)!
            case .year:
                return CalendarDay(year: day.year, month: 1, day: 1)!
            }
        }
    }

    /// The figure of a period.
    public enum Statistic: String, Sendable, CaseIterable, FieldChoice {
        /// The mean of the period's rates (unrounded, 38 significant digits).
        case mean
        /// The period's first rate.
        case first
        /// The period's last rate.
        case last
        /// The lowest.
        case min
        /// The highest.
        case max
    }

    private let period: Period
    private let statistic: Statistic
    private let emit: (SeriesTable.Row) throws -> Void
    private var current: CalendarDay?
    private var values: [[Decimal]]
    /// The publications (rows) of the period in progress.
    private var count = 0

    /// A grouper of rows with `columns` rates each, calling `emit` with each finished period.
    public init(period: Period, statistic: Statistic, columns: Int, emit: @escaping (SeriesTable.Row) throws -> Void) {
        self.period = period
        self.statistic = statistic
        self.emit = emit
        values = Array(repeating: [], count: columns)
    }

    /// Adds a day's row (rows come oldest first).
    public mutating func add(_ row: SeriesTable.Row) throws {
        let start = period.start(of: row.day)
        if start != current {
            try finish()
            current = start
        }
        for (index, rate) in row.rates.enumerated() {
            if let rate { values[index].append(rate) }
        }
        count += 1
    }

    /// Emits the period in progress, if any.
    public mutating func finish() throws {
        guard let current else { return }
        let figures = try values.map { rates -> Decimal? in
            guard let first = rates.first else { return nil }
            switch statistic {
            case .mean: return try DecimalMath.divide(rates.reduce(0, +), Decimal(rates.count))
            case .first: return first
            case .last: return rates.last
            case .min: return rates.min()
            case .max: return rates.max()
            }
        }
        var row = SeriesTable.Row(day: current, rates: figures, days: count)
        row.counts = values.map(\.count)
        try emit(row)
        self.current = nil
        values = values.map { _ in [] }
        count = 0
    }
}
