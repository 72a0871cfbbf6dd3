/// What a whole file held.
public struct FeedSummary: Sendable, Equatable, CustomStringConvertible {
    /// The source's name (a file name, a URL, or `-` for standard input).
    public let source: String
    /// How many days.
    public let days: Int
    /// How many rates.
    public let rates: Int
    /// The currencies quoted, in code order.
    public let currencies: [String]
    /// The earliest and the latest day (nil for a file without days).
    public let firstDay: CalendarDay?
    /// The latest day in the file.
    public let lastDay: CalendarDay?

    /// A summary of what a source held.
    public init(
        source: String, days: Int, rates: Int, currencies: [String], firstDay: CalendarDay?, lastDay: CalendarDay?
    ) {
        self.source = source
        self.days = days
        self.rates = rates
        self.currencies = currencies
        self.firstDay = firstDay
        self.lastDay = lastDay
    }

    /// `7104 days 1999-01-04..2026-09-30, 221064 rates, 41 currencies`.
    public var description: String {
        let span =
            firstDay.map { first in lastDay.map { $0 == first ? "\(first)" : "\(first)..\($0)" } ?? "\(first)" }
            ?? "no days"
        return
            "\(days) day\(days == 1 ? "" : "s") \(span), \(rates) rate\(rates == 1 ? "" : "s"), \(currencies.count) currenc\(currencies.count == 1 ? "y" : "ies")"
    }
}
