import EurofxrefFeed
import Foundation
import ManagedStore

/// The questions people and scripts ask of the rates, answered from a context: the front-end
/// runs them on the main context, which picks up imports by merging their saves.
///
/// ```swift
/// let queries = RateQueries(context: store.viewContext)
/// let answer = try queries.rate("USD", on: CalendarDay("2024-03-30"))   // Friday's rate
/// ```
///
/// Call it on its context's queue. `now` says what time it is, for the freshness checks.
public final class RateQueries {
    /// The context the queries read.
    public let context: ManagedObjectContext
    private let now: @Sendable () -> Date

    /// Queries on `context`.
    public init(context: ManagedObjectContext, now: @escaping @Sendable () -> Date = { Date() }) {
        self.context = context
        self.now = now
    }

    /// The time it is now, as the queries see it.
    public var currentDate: Date { now() }

    // MARK: What the store holds

    /// The first and last day the store holds.
    public func bounds() throws -> (first: CalendarDay, last: CalendarDay) {
        let row = try context.aggregate(AggregateRequest<Eurofxrefhist>(aggregates: [.min("date"), .max("date")]))[0]
        guard case .date(let first) = row[0], case .date(let last) = row[1] else { throw QueryError.emptyStore }
        return (CalendarDay(date: first), CalendarDay(date: last))
    }

    /// Each currency the store holds, with its first and last day and its number of rates.
    public func currencies() throws -> [CurrencySummary] {
        try context.aggregate(AggregateRequest<Eurofxrefhist>(groupBy: ["currencySymbol"], aggregates: [.min("date"), .max("date"), .count]))
            .compactMap { row in
                guard case .string(let code) = row[0], case .date(let first) = row[1], case .date(let last) = row[2],
                      case .integer(let count) = row[3] else { return nil }
                return CurrencySummary(code: code, firstDay: CalendarDay(date: first), lastDay: CalendarDay(date: last), rates: Int(count))
            }
    }

    /// The code, upper-cased, if the store holds it (EUR always); else
    /// ``QueryError/unknownCurrency(_:suggestions:)`` with near matches.
    public func knownCurrency(_ code: String) throws -> String {
        try knownCurrency(code, likelyOn: nil)
    }

    /// ``knownCurrency(_:)``, answered from the index on (date, currency) when the currency has a
    /// rate on `day`; only otherwise by looking for any rate of it.
    func knownCurrency(_ code: String, likelyOn day: CalendarDay?) throws -> String {
        let code = code.uppercased()
        if code == "EUR" { return code }
        if let day, try rateIfAny(code, on: day) != nil { return code }
        var request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.currencySymbol == code })
        request.fetchLimit = 1
        if try context.count(for: request) > 0 { return code }
        let known = try currencies().map(\.code) + ["EUR"]
        throw QueryError.unknownCurrency(code, suggestions: Self.nearMatches(to: code, among: known))
    }

    /// Codes close to `code`: one letter off, or the same letters in another order.
    static func nearMatches(to code: String, among codes: [String]) -> [String] {
        let letters = Array(code)
        return codes.filter { candidate in
            let other = Array(candidate)
            guard other.count == letters.count else { return false }
            let differences = zip(letters, other).filter { $0 != $1 }.count
            return differences == 1 || (differences == 2 && letters.sorted() == other.sorted())
        }.sorted()
    }

    // MARK: Rates

    /// The rate of `currency` against `base` on `day` (default: the newest stored day); on a day
    /// without one, the `fallback` decides.
    public func rate(_ currency: String, on day: CalendarDay? = nil, base: String = "EUR",
                     fallback: RateFallback = .previous) throws -> RateAnswer {
        // A day on which both have a rate is answered by those rates alone: it lies within the
        // bounds and both codes are known.
        let upper = currency.uppercased(), upperBase = base.uppercased()
        if let day, upper != "EUR" || upperBase != "EUR",
           let currencyRate = upper == "EUR" ? 1 : try rateIfAny(upper, on: day),
           let baseRate = upperBase == "EUR" ? 1 : try rateIfAny(upperBase, on: day) {
            return RateAnswer(currency: upper, base: upperBase, rate: Self.quotient(currencyRate, baseRate),
                              currencyPerEuro: currencyRate, basePerEuro: baseRate, day: day,
                              asked: nil, reason: nil, interpolatedBetween: nil)
        }
        let (first, last) = try bounds()
        let code = try knownCurrency(currency, likelyOn: last)
        let baseCode = try knownCurrency(base, likelyOn: last)
        let asked = day ?? last
        if asked < first { throw QueryError.beforeFirstDay(asked: asked, first: first, last: last) }
        if asked > last { try checkFresh(asked: asked, newest: last) }

        // The currency (or, quoted against the euro, the base) decides the day; the other must
        // have a rate that day.
        let lead = code == "EUR" ? baseCode : code
        let resolved = try resolve(lead, on: asked, fallback: fallback, newest: last)
        let currencyRate = lead == code ? resolved.rate : try exactRate(code, on: resolved.day)
        let baseRate = lead == baseCode ? resolved.rate : try exactRate(baseCode, on: resolved.day)
        let reason = resolved.day == asked && resolved.between == nil ? nil : Self.reason(for: asked, currency: lead, newest: last)
        return RateAnswer(currency: code, base: baseCode, rate: Self.quotient(currencyRate, baseRate),
                          currencyPerEuro: currencyRate, basePerEuro: baseRate, day: resolved.day,
                          asked: resolved.day == asked && resolved.between == nil ? nil : asked,
                          reason: reason, interpolatedBetween: resolved.between)
    }

    /// `amount` of `from` in `to` on `day`, rounded to `to`'s minor units (or `precision` places).
    public func convert(_ amount: Decimal, from: String, to: String, on day: CalendarDay? = nil,
                        fallback: RateFallback = .previous, precision: Int? = nil) throws -> ConversionAnswer {
        let answer = try rate(to, on: day, base: from, fallback: fallback)
        let places = precision ?? MinorUnits.places(for: answer.currency)
        let exact = amount * answer.currencyPerEuro / answer.basePerEuro
        return ConversionAnswer(amount: amount, result: Self.round(exact, places: places), rate: answer, places: places)
    }

    /// Why `day` has no rate of its own for `currency`.
    static func reason(for day: CalendarDay, currency: String, newest: CalendarDay) -> String {
        if let closure = TargetCalendar.closure(on: day) { return closure }
        if day > newest { return "its rates are not out yet" }
        return "no \(currency) rate was published that day"
    }

    /// Throws unless the store is fresh enough to answer for `asked`, a day after its newest.
    private func checkFresh(asked: CalendarDay, newest: CalendarDay) throws {
        let now = now()
        if asked > TargetCalendar.today(at: now) { throw QueryError.futureDay(asked: asked, newest: newest) }
        let due = TargetCalendar.businessDays(after: newest, through: asked).filter { TargetCalendar.publicationTime(of: $0) <= now }
        if let missing = due.first { throw QueryError.staleStore(asked: asked, newest: newest, missing: missing) }
    }

    private func resolve(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay)
        throws -> (day: CalendarDay, rate: Decimal, between: [CalendarDay]?) {
        if code == "EUR" { return (day, 1, nil) }
        if let rate = try rateIfAny(code, on: day) { return (day, rate, nil) }
        try checkNoHole(from: day, to: day, asked: day, newest: newest)
        let found = try fallbackRate(code, on: day, fallback: fallback, newest: newest)
        // A fallback never passes over a hole: the days it skips must be days without rates.
        for used in [found.day] + (found.between ?? []) where used != day {
            try checkNoHole(from: min(used, day), to: max(used, day), asked: day, newest: newest)
        }
        return found
    }

    /// Throws ``QueryError/hole(day:asked:)`` for the business day from `from` to `to`, inside
    /// the stored days, that holds no rate at all and is nearest `asked`.
    func checkNoHole(from: CalendarDay, to: CalendarDay, asked: CalendarDay, newest: CalendarDay) throws {
        let last = min(to, newest)
        guard from <= last else { return }
        let businessDays = TargetCalendar.businessDays(after: from.adding(days: -1), through: last)
        guard !businessDays.isEmpty else { return }
        let stored = try storedDays(from: from, to: last)
        let unstored = businessDays.filter { !stored.contains($0) }
        guard !unstored.isEmpty else { return }
        let (first, _) = try bounds()
        // The missing day nearest the one asked for: the day the answer needed first.
        let missing = unstored.filter { $0 > first }
        if let nearest = missing.min(by: { abs($0.days(since: asked)) < abs($1.days(since: asked)) }) {
            throw QueryError.hole(day: nearest, asked: asked)
        }
    }

    /// The days from `from` to `to` that hold any rate (from the unique index on date).
    func storedDays(from: CalendarDay, to: CalendarDay) throws -> Set<CalendarDay> {
        let (start, end) = (from.date, to.date)
        let rows = try context.aggregate(AggregateRequest<Eurofxrefhist>(
            predicate: #Predicate { $0.date >= start && $0.date <= end }, groupBy: ["date"], aggregates: [.count]))
        return Set(rows.compactMap { row in if case .date(let date) = row[0] { CalendarDay(date: date) } else { nil } })
    }

    /// Business days inside the stored range without any rate: holes an import left.
    public func holes() throws -> [CalendarDay] {
        guard let (first, last) = try? bounds() else { return [] }
        let stored = try storedDays(from: first, to: last)
        return TargetCalendar.businessDays(after: first, through: last).filter { !stored.contains($0) }
    }

    private func fallbackRate(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay)
        throws -> (day: CalendarDay, rate: Decimal, between: [CalendarDay]?) {
        let window = RateFallback.window
        switch fallback {
        case .none:
            throw QueryError.noRateOnDay(currency: code, day: day, reason: Self.reason(for: day, currency: code, newest: newest))
        case .previous:
            if let found = try nearest(code, to: day, after: false, within: window) { return (found.day, found.rate, nil) }
        case .next:
            if let found = try nearest(code, to: day, after: true, within: window) { return (found.day, found.rate, nil) }
        case .nearest:
            let before = try nearest(code, to: day, after: false, within: window)
            let after = try nearest(code, to: day, after: true, within: window)
            if let before, after.map({ day.days(since: before.day) <= $0.day.days(since: day) }) ?? true { return (before.day, before.rate, nil) }
            if let after { return (after.day, after.rate, nil) }
        case .interpolate:
            let before = try nearest(code, to: day, after: false, within: window)
            let after = try nearest(code, to: day, after: true, within: window)
            if let before, let after {
                let span = Decimal(after.day.days(since: before.day)), offset = Decimal(day.days(since: before.day))
                let value = before.rate + (after.rate - before.rate) * offset / span
                return (day, Self.round(value, places: 6), [before.day, after.day])
            }
            // After the newest stored day there is nothing to interpolate towards.
            if let before, day > newest { return (before.day, before.rate, nil) }
        }
        throw QueryError.notQuoted(currency: code, day: day, lastBefore: try nearest(code, to: day, after: false, within: nil)?.day,
                                   nextAfter: try nearest(code, to: day, after: true, within: nil)?.day)
    }

    private func exactRate(_ code: String, on day: CalendarDay) throws -> Decimal {
        if code == "EUR" { return 1 }
        if let rate = try rateIfAny(code, on: day) { return rate }
        throw QueryError.notQuoted(currency: code, day: day, lastBefore: try nearest(code, to: day, after: false, within: nil)?.day,
                                   nextAfter: try nearest(code, to: day, after: true, within: nil)?.day)
    }

    /// The rate of `code` on `day`, if published.
    func rateIfAny(_ code: String, on day: CalendarDay) throws -> Decimal? {
        let date = day.date
        var request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date && $0.currencySymbol == code })
        request.fetchLimit = 1
        return try context.fetch(request).first?.exchangeRate
    }

    /// The closest day before (or after) `day` with a rate for `code`, within `window` days.
    func nearest(_ code: String, to day: CalendarDay, after: Bool, within window: Int?) throws -> (day: CalendarDay, rate: Decimal)? {
        let date = day.date
        var request: FetchRequest<Eurofxrefhist>
        if after {
            let limit = window.map { day.adding(days: $0).date } ?? Date.distantFuture
            request = FetchRequest(predicate: #Predicate { $0.currencySymbol == code && $0.date > date && $0.date <= limit },
                                   sortBy: [SortDescriptor(\.date)])
        } else {
            let limit = window.map { day.adding(days: -$0).date } ?? Date.distantPast
            request = FetchRequest(predicate: #Predicate { $0.currencySymbol == code && $0.date < date && $0.date >= limit },
                                   sortBy: [SortDescriptor(\.date, order: .reverse)])
        }
        request.fetchLimit = 1
        return try context.fetch(request).first.map { ($0.day, $0.exchangeRate) }
    }

    // MARK: Series and figures

    /// The rates of `currencies` from `from` to `to`, one row per day.
    public func series(_ currencies: [String], from: CalendarDay, to: CalendarDay) throws -> SeriesTable {
        let codes = try currencies.map(knownCurrency)
        let stored = codes.filter { $0 != "EUR" }
        let start = from.date, end = to.date
        // Values, not managed objects: a series of 27 years is 7,000 rows a currency, read once.
        let rates = try context.fetchValues(FetchRequest<Eurofxrefhist>(
            predicate: #Predicate { stored.contains($0.currencySymbol) && $0.date >= start && $0.date <= end },
            sortBy: [SortDescriptor(\.date)]), properties: ["date", "currencySymbol", "exchangeRate"])
        var rows: [SeriesTable.Row] = []
        var current: CalendarDay?
        var values: [Decimal?] = []
        let column = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        for rate in rates {
            guard case .date(let date) = rate[0], case .string(let code) = rate[1], case .decimal(let value) = rate[2] else { continue }
            let day = CalendarDay(date: date)
            if day != current {
                if let current { rows.append(.init(day: current, rates: values)) }
                current = day
                values = codes.map { $0 == "EUR" ? 1 : nil }
            }
            if let index = column[code] { values[index] = value }
        }
        if let current { rows.append(.init(day: current, rates: values)) }
        if rows.isEmpty { throw QueryError.noRatesInRange(currencies: codes, from: from, to: to) }
        return SeriesTable(currencies: codes, rows: rows)
    }

    /// The first, last, lowest, highest and mean rate of `currency` from `from` to `to`.
    public func stats(_ currency: String, from: CalendarDay, to: CalendarDay) throws -> RateStats {
        let table = try series([currency], from: from, to: to)
        let points = table.rows.compactMap { row in row.rates[0].map { (day: row.day, rate: $0) } }
        guard let first = points.first, let last = points.last else {
            throw QueryError.noRatesInRange(currencies: table.currencies, from: from, to: to)
        }
        var minimum = first, maximum = first, sum = Decimal(0)
        for point in points {
            if point.rate < minimum.rate { minimum = point }
            if point.rate > maximum.rate { maximum = point }
            sum += point.rate
        }
        let mean = Self.round(sum / Decimal(points.count), places: 6)
        let change = Self.round((last.rate - first.rate) / first.rate * 100, places: 2)
        return RateStats(currency: table.currencies[0], from: from, to: to, days: points.count, first: first, last: last,
                         minimum: minimum, maximum: maximum, mean: mean, changePercent: change)
    }

    /// The rates of the newest day (of `currencies`, or all).
    public func latest(_ currencies: [String]? = nil) throws -> LatestRates {
        let codes = try currencies.map { try $0.map(knownCurrency) }
        let (_, last) = try bounds()
        let date = last.date
        let stored = try context.fetch(FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date },
                                                                    sortBy: [SortDescriptor(\.currencySymbol)]))
        var rates = stored.map { (currency: $0.currencySymbol, rate: $0.exchangeRate) }
        var missing: [(currency: String, lastDay: CalendarDay?)] = []
        if let codes {
            let byCode = Dictionary(uniqueKeysWithValues: rates.map { ($0.currency, $0.rate) })
            rates = codes.compactMap { code in code == "EUR" ? ("EUR", 1) : byCode[code].map { (code, $0) } }
            for code in codes where code != "EUR" && byCode[code] == nil {
                missing.append((code, try nearest(code, to: last, after: false, within: nil)?.day))
            }
        }
        return LatestRates(day: last, rates: rates, missing: missing)
    }

    /// The business days whose rates are out but not in the store (after its newest day, up
    /// to the newest day due now), and that newest stored day; from the index alone, so cheap
    /// enough to ask before every answer.
    public func missingBusinessDays() throws -> (newest: CalendarDay, missing: [CalendarDay]) {
        let (_, last) = try bounds()
        return (last, TargetCalendar.businessDays(after: last, through: TargetCalendar.latestDueDay(at: now())))
    }

    /// What the store holds, and whether it has every business day whose rates should be out.
    public func status() throws -> StoreStatus {
        let row = try context.aggregate(AggregateRequest<Eurofxrefhist>(
            aggregates: [.min("date"), .max("date"), .count, .countDistinct("date"), .countDistinct("currencySymbol")]))[0]
        let first: CalendarDay? = if case .date(let date) = row[0] { CalendarDay(date: date) } else { nil }
        let last: CalendarDay? = if case .date(let date) = row[1] { CalendarDay(date: date) } else { nil }
        func count(_ value: AttributeValue) -> Int { if case .integer(let n) = value { Int(n) } else { 0 } }
        let due = TargetCalendar.latestDueDay(at: now())
        let missing = last.map { TargetCalendar.businessDays(after: $0, through: due) } ?? []
        let holes = try self.holes()
        var runRequest = FetchRequest<ImportRun>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        runRequest.fetchLimit = 1
        // The run log is written by contexts this one does not merge: take the stored values.
        runRequest.shouldRefreshRefetchedObjects = true
        let lastRun = try context.fetch(runRequest).first.map { run in
            // A run still marked running whose process is gone was killed (or its machine
            // stopped): say so, as the next import will record it.
            let gone = run.outcome == .running && kill(pid_t(run.processID), 0) == -1 && errno == ESRCH
            return ImportRunSummary(
                source: run.source, startedAt: run.startedAt, finishedAt: run.finishedAt,
                outcome: gone ? ImportRun.Outcome.interrupted.rawValue : run.outcomeText,
                rates: Int(run.rates), inserted: Int(run.inserted), corrected: Int(run.corrected),
                error: gone ? ImportRun.interruptedMessage(processID: run.processID) : run.errorMessage,
                processID: Int(run.processID))
        }
        return StoreStatus(firstDay: first, lastDay: last, rates: count(row[2]), days: count(row[3]), currencies: count(row[4]),
                           dueDay: due, missingBusinessDays: missing, holes: holes, ageDays: last.map { max(0, due.days(since: $0)) } ?? 0,
                           lastRun: lastRun)
    }

    /// Units of the currency per unit of the base, to six places (exact against the euro).
    static func quotient(_ currencyPerEuro: Decimal, _ basePerEuro: Decimal) -> Decimal {
        basePerEuro == 1 ? currencyPerEuro : round(currencyPerEuro / basePerEuro, places: 6)
    }

    /// `value` rounded half away from zero to `places` decimal places.

    static func round(_ value: Decimal, places: Int) -> Decimal {
        var input = value, output = Decimal()
        NSDecimalRound(&output, &input, places, .plain)
        return output
    }
}
