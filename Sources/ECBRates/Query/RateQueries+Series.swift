import EurofxrefFeed
import Foundation
import ManagedStore

/// Ranges of days: series, their figures, and the days a range lacks.
extension RateQueries {
    /// The business days from `from` to `to` whose rates are out (by now) but not in the
    /// store: holes inside it, days before its first (back to 1999-01-04), days after its newest.
    public func missingDays(from: CalendarDay, to: CalendarDay) throws -> [CalendarDay] {
        let start = max(from, TargetCalendar.firstPublicationDay), end = min(to, TargetCalendar.latestDueDay(at: now()))
        guard start <= end else { return [] }
        let businessDays = TargetCalendar.businessDays(after: start.adding(days: -1), through: end)
        guard !businessDays.isEmpty else { return [] }
        // The days with a USD rate (from the index on currency and date: a fraction of the cost
        // of every day's rows) are stored days; only the business days among the rest are
        // looked up one by one, or, when there are many (a store without USD), all at once.
        let pilot = try days(withRateOf: "USD", from: start, to: end)
        let candidates = businessDays.filter { !pilot.contains($0) }
        guard !candidates.isEmpty else { return [] }
        let stored = candidates.count > 300 ? try storedDays(from: start, to: end) : try storedDays(among: candidates)
        return candidates.filter { !stored.contains($0) }
    }

    /// The days from `from` to `to` with a rate of `code`.
    func days(withRateOf code: String, from: CalendarDay, to: CalendarDay) throws -> Set<CalendarDay> {
        let start = from, end = to
        let dates = try context.fetchValues(
            FetchRequest<Eurofxrefhist>(
                predicate: #Predicate { $0.currencySymbol == code && $0.date >= start && $0.date <= end }), \.date)
        return Set(dates)
    }

    /// Which of `days` hold any rate.
    func storedDays(among days: [CalendarDay]) throws -> Set<CalendarDay> {
        let dates = days
        let rows = try context.aggregate(
            FetchRequest<Eurofxrefhist>(predicate: #Predicate { dates.contains($0.date) }), groupedBy: \.date, .count)
        return Set(rows.map(\.0))
    }

    /// Throws ``QueryError/incompleteRange(from:to:missing:)`` when the range reaches days the
    /// store should hold and does not, unless `partial`; returns those days.
    func checkComplete(from: CalendarDay, to: CalendarDay, partial: Bool) throws -> [CalendarDay] {
        let missing = try missingDays(from: from, to: to)
        if !missing.isEmpty && !partial { throw QueryError.incompleteRange(from: from, to: to, missing: missing) }
        return missing
    }

    /// The rates of `currencies` from `from` to `to`, one row per day. A range that reaches
    /// business days whose rates are out but not stored is an error, as a single day is, unless
    /// `partial` (then the table lists them in ``SeriesTable/missing``). Against a `base` other
    /// than the euro, each value is that day's cross rate (38 significant digits).
    public func series(
        _ currencies: [CurrencyCode], from: CalendarDay, to: CalendarDay, base: CurrencyCode = .euro,
        partial: Bool = false
    ) throws -> SeriesTable {
        var rows: [SeriesTable.Row] = []
        let (codes, baseCode, missing) = try eachSeriesRow(currencies, from: from, to: to, base: base, partial: partial)
        { rows.append($0) }
        return SeriesTable(currencies: codes, rows: rows, missing: missing, base: baseCode)
    }

    /// Days of rates a series reads at a time: four years (at most about 33,000 rows).
    static let seriesWindowDays = 1_461

    /// Calls `body` with each row of the series, oldest first, reading four years of rates at
    /// a time: memory stays flat however long the range. Returns the columns, the base and the
    /// days missing from the range (see ``series(_:from:to:base:partial:)``).
    @discardableResult
    public func eachSeriesRow(
        _ currencies: [CurrencyCode], from: CalendarDay, to: CalendarDay, base: CurrencyCode = .euro,
        partial: Bool = false, _ body: (SeriesTable.Row) throws -> Void
    ) throws -> (codes: [String], base: String, missing: [CalendarDay]) {
        let codes = try currencies.map { try knownCurrency($0).text }
        let baseCode = try knownCurrency(base).text
        let missing = try checkComplete(from: from, to: to, partial: partial)
        let stored = Array(Set(codes + [baseCode]).subtracting(["EUR"]))
        let column = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        var count = 0
        var windowStart = from
        while windowStart <= to {
            let windowEnd = min(windowStart.adding(days: Self.seriesWindowDays - 1), to)
            let start = windowStart, end = windowEnd
            // Values, not managed objects: each rate is read once.
            let rates = try context.fetchValues(
                FetchRequest<Eurofxrefhist>(
                    predicate: #Predicate { stored.contains($0.currencySymbol) && $0.date >= start && $0.date <= end },
                    sortBy: [SortDescriptor(\.date)]), \.date, \.currencySymbol, \.exchangeRate)
            var current: CalendarDay?
            var values: [Decimal?] = []
            var baseValue: Decimal?
            func emit() throws {
                guard let current else { return }
                if baseCode != "EUR" {
                    values = try codes.map { code in
                        guard let baseValue else { return nil }
                        if code == "EUR" { return try DecimalMath.divide(1, baseValue) }
                        return try values[column[code]!].map { try DecimalMath.divide($0, baseValue) }
                    }
                }
                // A day without any of the currencies asked for is not a row of theirs.
                guard values.contains(where: { $0 != nil }) else { return }
                try body(SeriesTable.Row(day: current, rates: values))
                count += 1
            }
            for (date, code, value) in rates {
                let day = date
                if day != current {
                    try emit()
                    current = day
                    values = codes.map { $0 == "EUR" ? 1 : nil }
                    baseValue = baseCode == "EUR" ? 1 : nil
                }
                if let index = column[code] { values[index] = value }
                if code == baseCode { baseValue = value }
            }
            try emit()
            windowStart = windowEnd.adding(days: 1)
        }
        if count == 0 { throw QueryError.noRatesInRange(currencies: codes, from: from, to: to) }
        return (codes, baseCode, missing)
    }

    /// The first, last, lowest, highest and mean rate of `currency` from `from` to `to`.
    public func stats(
        _ currency: CurrencyCode, from: CalendarDay, to: CalendarDay, base: CurrencyCode = .euro,
        partial: Bool = false
    ) throws -> RateStats {
        let table = try series([currency], from: from, to: to, base: base, partial: partial)
        let points = table.rows.compactMap { row in row.rates[0].map { DatedRate(day: row.day, rate: $0) } }
        guard let first = points.first, let last = points.last else {
            throw QueryError.noRatesInRange(currencies: table.currencies, from: from, to: to)
        }
        var minimum = first, maximum = first, sum = Decimal(0)
        for point in points {
            if point.rate < minimum.rate { minimum = point }
            if point.rate > maximum.rate { maximum = point }
            sum += point.rate
        }
        let mean = try DecimalMath.divide(sum, Decimal(points.count))
        let change = DecimalMath.round(try DecimalMath.divide((last.rate - first.rate) * 100, first.rate), places: 2)
        return RateStats(
            currency: table.currencies[0], from: from, to: to, days: points.count, first: first, last: last,
            minimum: minimum, maximum: maximum, mean: mean, changePercent: change, missing: table.missing,
            base: table.base)
    }

    /// The rates of the newest day (of `currencies`, or all).
}
