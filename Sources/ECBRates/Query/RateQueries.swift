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
        cache = nil
    }

    /// Queries that keep the days they read (up to `cachedDays` of them) and the store's bounds
    /// and currencies: many questions in a row (a batch conversion) cost a dictionary read each
    /// once their days are in. Their answers are those of the store when each day was first
    /// read; make new queries to see later imports.
    public init(context: ManagedObjectContext, cachedDays: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.context = context
        self.now = now
        cache = PublicationCache(context: context, capacity: cachedDays)
    }

    private let cache: PublicationCache?

    /// The time it is now, as the queries see it.
    public var currentDate: Date { now() }

    // MARK: What the store holds

    /// The first and last day the store holds.
    public func bounds() throws -> (first: CalendarDay, last: CalendarDay) {
        if let cache {
            if let bounds = cache.bounds { return bounds }
            cache.bounds = try readBounds()
            return cache.bounds!
        }
        return try readBounds()
    }

    private func readBounds() throws -> (first: CalendarDay, last: CalendarDay) {
        let (first, last) = try context.aggregate(FetchRequest<Eurofxrefhist>(), .minimum(\.date), .maximum(\.date))
        guard let first, let last else { throw QueryError.emptyStore }
        return (first, last)
    }

    /// Each currency the store holds, with its first and last day and its number of rates.
    public func currencies() throws -> [CurrencySummary] {
        try context.aggregate(FetchRequest<Eurofxrefhist>(), groupedBy: \.currencySymbol, .minimum(\.date), .maximum(\.date), .count)
            .compactMap { code, first, last, count in
                guard let first, let last else { return nil }
                return CurrencySummary(code: code, firstDay: first, lastDay: last, rates: count)
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
        if let cache {
            if try cache.summaries(of: self)[code] != nil { return code }
        }
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
    /// without one, the `fallback` decides, for each leg (currency and base) on its own.
    public func rate(_ currency: String, on day: CalendarDay? = nil, base: String = "EUR",
                     fallback: RateFallback = .previous) throws -> RateAnswer {
        // A day on which both have a rate is answered by those rates alone: it lies within the
        // bounds, both codes are known, and a currency quoted that day has not ended.
        let upper = Self.upperCased(currency), upperBase = Self.upperCased(base)
        // With a cache, the day's rates are looked up once for both codes.
        let dayRates = try day.flatMap { day in try cache?.rates(on: day) }
        func published(_ code: String, _ day: CalendarDay) throws -> Decimal? {
            if code == "EUR" { return 1 }
            if let dayRates { return dayRates[packed: DayRates.pack(code)] }
            return try rateIfAny(code, on: day)
        }
        if let day, upper != "EUR" || upperBase != "EUR",
           let currencyRate = try published(upper, day), let baseRate = try published(upperBase, day) {
            let leg = { (code: String, rate: Decimal) in code == "EUR" ? RateLeg.euro(on: day) : RateLeg.published(code, rate, on: day) }
            return RateAnswer(currencyLeg: leg(upper, currencyRate), baseLeg: leg(upperBase, baseRate), asked: day, reason: nil)
        }
        let (first, last) = try bounds()
        let code = try knownCurrency(currency, likelyOn: last)
        let baseCode = try knownCurrency(base, likelyOn: last)
        let asked = day ?? last
        if asked < first && !Self.reachesForward(from: asked, to: first, fallback: fallback) {
            throw QueryError.beforeFirstDay(asked: asked, first: first, last: last)
        }
        if asked > last { try checkFresh(asked: asked, newest: last) }
        let currencyLeg = try resolve(code, on: asked, fallback: fallback, newest: last)
        let baseLeg = try resolve(baseCode, on: asked, fallback: fallback, newest: last)
        let lead = code == "EUR" ? baseCode : code
        return RateAnswer(currencyLeg: currencyLeg, baseLeg: baseLeg, asked: asked,
                              reason: Self.reason(for: asked, currency: lead, newest: last))
    }

    /// The rates of `currencies` (default: every currency the ECB quoted in the publication
    /// that answers for `day`) against `base` on `day` (default: the newest stored day), each
    /// answered as ``rate(_:on:base:fallback:)`` answers it, in the order asked for (or by code).
    public func rates(_ currencies: [String]? = nil, on day: CalendarDay? = nil, base: String = "EUR",
                      fallback: RateFallback = .previous) throws -> [RateAnswer] {
        let baseCode = try knownCurrency(base)
        // Every currency of the publication, the euro too when quoted against another.
        let codes = try currencies ?? (quotedCurrencies(on: day ?? bounds().last, fallback: fallback) + ["EUR"]).filter { $0 != baseCode }.sorted()
        return try codes.map { try rate($0, on: day, base: baseCode, fallback: fallback) }
    }

    /// The currencies in the ECB's publication that answers for `day` under `fallback`: that
    /// day's, or the one the fallback takes (for an interpolation, those in both), by code.
    public func quotedCurrencies(on day: CalendarDay, fallback: RateFallback) throws -> [String] {
        let (first, last) = try bounds()
        if day < first && !Self.reachesForward(from: day, to: first, fallback: fallback) {
            throw QueryError.beforeFirstDay(asked: day, first: first, last: last)
        }
        if day > last { try checkFresh(asked: day, newest: last) }
        if try isPublicationDay(day) { return try currencies(publishedOn: day) }
        try checkNoHole(from: day, to: day, asked: day, newest: last)
        let before = try publication(of: "EUR", nextTo: day, after: false)?.day
        let after = try publication(of: "EUR", nextTo: day, after: true)?.day
        var days: [CalendarDay]
        switch fallback {
        case .none:
            throw QueryError.noRateOnDay(currency: "ECB", day: day, reason: Self.reason(for: day, currency: "any", newest: last))
        case .previous: days = before.map { [$0] } ?? []
        case .next:
            if after == nil && day > last { throw QueryError.notYetPublished(currency: "ECB", day: day, newest: last) }
            days = after.map { [$0] } ?? []
        case .nearest:
            days = [before, after].compactMap { $0 }.sorted { abs($0.days(since: day)) < abs($1.days(since: day)) }.prefix(1).map { $0 }
        case .interpolate:
            if after == nil && day > last { throw QueryError.notYetPublished(currency: "ECB", day: day, newest: last) }
            days = before.map { before in after.map { [before, $0] } ?? [] } ?? []
        }
        guard let firstDay = days.first else { throw QueryError.noRatesInRange(currencies: [], from: day, to: day) }
        var codes = Set(try currencies(publishedOn: firstDay))
        for other in days.dropFirst() { codes.formIntersection(try currencies(publishedOn: other)) }
        return codes.sorted()
    }

    /// The currencies with a rate on `day`, by code.
    func currencies(publishedOn day: CalendarDay) throws -> [String] {
        if let cache { return try cache.rates(on: day).codes }
        let date = day
        return try context.aggregate(FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date }), groupedBy: \.currencySymbol, .count)
            .map(\.0).sorted()
    }

    /// Whether `fallback` may answer for `day`, before the first stored day, with that day's
    /// rates: `next` and `nearest` look up to ``RateFallback/window`` days ahead.
    static func reachesForward(from day: CalendarDay, to first: CalendarDay, fallback: RateFallback) -> Bool {
        (fallback == .next || fallback == .nearest) && first.days(since: day) <= RateFallback.window
    }

    /// `code` in upper case (as it is, when it already is: the usual case, without a copy).
    static func upperCased(_ code: String) -> String {
        code.utf8.allSatisfy({ $0 < UInt8(ascii: "a") || $0 > UInt8(ascii: "z") }) ? code : code.uppercased()
    }

    /// `amount` of `from` in `to` on `day`: computed from the published rates (or the
    /// interpolated ones) with no rounding on the way, then rounded once, half away from zero,
    /// to `to`'s minor units (or `precision` places).
    public func convert(_ amount: Decimal, from: String, to: String, on day: CalendarDay? = nil,
                        fallback: RateFallback = .previous, precision: Int? = nil) throws -> ConversionAnswer {
        guard DecimalMath.significantDigits(amount) <= DecimalMath.amountDigits else {
            throw QueryError.inexact("\(DecimalText.format(amount)) \(from.uppercased()) in \(to.uppercased())")
        }
        let answer = try rate(to, on: day, base: from, fallback: fallback)
        let places = precision ?? MinorUnits.places(for: answer.currency)
        return ConversionAnswer(amount: amount, result: try answer.converting(amount, places: places), rate: answer, places: places)
    }

    /// Why `day` has no rate of its own for `currency`.
    static func reason(for day: CalendarDay, currency: String, newest: CalendarDay) -> String {
        if let closure = TargetCalendar.closure(on: day) { return closure }
        if day < TargetCalendar.firstPublicationDay { return "before the ECB's first reference rates, of \(TargetCalendar.firstPublicationDay)" }
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

    /// The leg of `code` for `day`: its rate that day, or the fallback's. A fallback only looks
    /// at the ECB's publications next to the day (the last before it, the first after it), and
    /// the currency must be in the one it uses: a currency the ECB left out of a publication
    /// (ended, suspended, not yet quoted) is never answered with an older or newer rate. Nor is
    /// a day the ``CurrencyLifecycle`` table puts past a currency's end.
    private func resolve(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay) throws -> RateLeg {
        if code == "EUR" { return .euro(on: day) }
        // With a cache, a leg found once is found again (the cache's store does not change).
        guard let cache else { return try resolveLeg(code, on: day, fallback: fallback, newest: newest) }
        return try cache.leg(code, on: day, fallback: fallback) { try resolveLeg(code, on: day, fallback: fallback, newest: newest) }
    }

    private func resolveLeg(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay) throws -> RateLeg {
        if let interruption = CurrencyLifecycle.interruption(of: code, on: day) { throw try notQuoted(code, on: day, why: interruption.why) }
        if let rate = try rateIfAny(code, on: day) { return .published(code, rate, on: day) }
        if try isPublicationDay(day) { throw try notQuoted(code, on: day, why: nil) }
        try checkNoHole(from: day, to: day, asked: day, newest: newest)
        let found = try fallbackLeg(code, on: day, fallback: fallback, newest: newest)
        // A fallback never passes over a hole: the days it skips must be days without rates.
        for used in found.sources.map(\.day) where used != day {
            try checkNoHole(from: min(used, day), to: max(used, day), asked: day, newest: newest)
        }
        return found
    }

    private func notQuoted(_ code: String, on day: CalendarDay, why: String?) throws -> QueryError {
        let why = why ?? CurrencyLifecycle.interruption(of: code, on: day)?.why
        // Outside the currency's first and last days, those are the answer (from the cache's list
        // of currencies, when there is one); inside them, the store is asked.
        if let cache, let summary = try cache.summaries(of: self)[code], day < summary.firstDay || day > summary.lastDay {
            return .notQuoted(currency: code, day: day, lastBefore: day > summary.lastDay ? summary.lastDay : nil,
                              nextAfter: day < summary.firstDay ? summary.firstDay : nil, why: why)
        }
        return .notQuoted(currency: code, day: day, lastBefore: try nearest(code, to: day, after: false, within: nil)?.day,
                          nextAfter: try nearest(code, to: day, after: true, within: nil)?.day, why: why)
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
        if let cache, to.days(since: from) < 31 {
            return Set(try (0...max(0, to.days(since: from))).map { from.adding(days: $0) }.filter { try !cache.rates(on: $0).isEmpty })
        }
        let (start, end) = (from, to)
        let rows = try context.aggregate(FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date >= start && $0.date <= end }),
                                         groupedBy: \.date, .count)
        return Set(rows.map(\.0))
    }

    /// Business days inside the stored range without any rate: holes an import left.
    public func holes() throws -> [CalendarDay] {
        guard let (first, last) = try? bounds() else { return [] }
        let stored = try storedDays(from: first, to: last)
        return TargetCalendar.businessDays(after: first, through: last).filter { !stored.contains($0) }
    }

    private func fallbackLeg(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay) throws -> RateLeg {
        if fallback == .none {
            throw QueryError.noRateOnDay(currency: code, day: day, reason: Self.reason(for: day, currency: code, newest: newest))
        }
        // The ECB's publications on either side of the day, within the window, and the
        // currency's rate in each (nil: the ECB published that day without it).
        let before = try publication(of: code, nextTo: day, after: false)
        let after = try publication(of: code, nextTo: day, after: true)
        func quoted(_ found: (day: CalendarDay, rate: Decimal?)?) -> RateLeg.Published? {
            guard let found, let rate = found.rate,
                  CurrencyLifecycle.interruption(of: code, between: found.day, and: day) == nil else { return nil }
            return RateLeg.Published(day: found.day, perEuro: rate)
        }
        let previous = quoted(before), next = quoted(after)
        switch fallback {
        case .none:
            break
        case .previous:
            if let previous { return .published(code, previous.perEuro, on: previous.day) }
        case .next:
            if let next { return .published(code, next.perEuro, on: next.day) }
            if after == nil && day > newest { throw QueryError.notYetPublished(currency: code, day: day, newest: newest) }
        case .nearest:
            // The nearer publication that quotes the currency (the earlier on a tie).
            let candidates = [previous, next].compactMap { $0 }
            if let best = candidates.min(by: { abs($0.day.days(since: day)) < abs($1.day.days(since: day)) }) {
                return .published(code, best.perEuro, on: best.day)
            }
        case .interpolate:
            if let previous, let next { return try .interpolated(code, on: day, before: previous, after: next) }
            // After the newest stored day there is nothing to interpolate towards: said, not
            // answered with the previous rate.
            if after == nil && day > newest { throw QueryError.notYetPublished(currency: code, day: day, newest: newest) }
        }
        throw try notQuoted(code, on: day, why: nil)
    }

    /// The ECB's last publication before `day` (or first after), within the fallback window,
    /// with the rate of `code` in it if it has one.
    func publication(of code: String, nextTo day: CalendarDay, after: Bool) throws -> (day: CalendarDay, rate: Decimal?)? {
        let window = RateFallback.window
        if let cache {
            for offset in 1...window {
                let other = day.adding(days: after ? offset : -offset)
                let rates = try cache.rates(on: other)
                if !rates.isEmpty { return (other, rates[code]) }
            }
            return nil
        }
        let (low, high) = after ? (day.adding(days: 1), day.adding(days: window)) : (day.adding(days: -window), day.adding(days: -1))
        let request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date >= low && $0.date <= high })
        let nearest = after ? try context.aggregate(request, .minimum(\.date)) : try context.aggregate(request, .maximum(\.date))
        guard let found = nearest else { return nil }
        return (found, try rateIfAny(code, on: found))
    }

    /// Whether the ECB published any rate on `day` (the store holds one).
    func isPublicationDay(_ day: CalendarDay) throws -> Bool {
        if let cache { return try !cache.rates(on: day).isEmpty }
        let date = day
        var request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date })
        request.fetchLimit = 1
        return try context.count(for: request) > 0
    }

    /// The rate of `code` on `day`, if published.
    func rateIfAny(_ code: String, on day: CalendarDay) throws -> Decimal? {
        if let cache { return try cache.rates(on: day)[code] }
        let date = day
        var request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date && $0.currencySymbol == code })
        request.fetchLimit = 1
        return try context.fetch(request).first?.exchangeRate
    }

    /// The closest day before (or after) `day` with a rate for `code`, within `window` days.
    func nearest(_ code: String, to day: CalendarDay, after: Bool, within window: Int?) throws -> (day: CalendarDay, rate: Decimal)? {
        let date = day
        var request: FetchRequest<Eurofxrefhist>
        if after {
            let limit = window.map { day.adding(days: $0) } ?? CalendarDay.latest
            request = FetchRequest(predicate: #Predicate { $0.currencySymbol == code && $0.date > date && $0.date <= limit },
                                   sortBy: [SortDescriptor(\.date)])
        } else {
            let limit = window.map { day.adding(days: -$0) } ?? CalendarDay.earliest
            request = FetchRequest(predicate: #Predicate { $0.currencySymbol == code && $0.date < date && $0.date >= limit },
                                   sortBy: [SortDescriptor(\.date, order: .reverse)])
        }
        request.fetchLimit = 1
        return try context.fetch(request).first.map { ($0.day, $0.exchangeRate) }
    }

    // MARK: Series and figures

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
        let dates = try context.fetchValues(FetchRequest<Eurofxrefhist>(
            predicate: #Predicate { $0.currencySymbol == code && $0.date >= start && $0.date <= end }), \.date)
        return Set(dates)
    }

    /// Which of `days` hold any rate.
    func storedDays(among days: [CalendarDay]) throws -> Set<CalendarDay> {
        let dates = days
        let rows = try context.aggregate(FetchRequest<Eurofxrefhist>(predicate: #Predicate { dates.contains($0.date) }), groupedBy: \.date, .count)
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
    public func series(_ currencies: [String], from: CalendarDay, to: CalendarDay, base: String = "EUR",
                       partial: Bool = false) throws -> SeriesTable {
        var rows: [SeriesTable.Row] = []
        let (codes, baseCode, missing) = try eachSeriesRow(currencies, from: from, to: to, base: base, partial: partial) { rows.append($0) }
        return SeriesTable(currencies: codes, rows: rows, missing: missing, base: baseCode)
    }

    /// Days of rates a series reads at a time: four years (at most about 33,000 rows).
    static let seriesWindowDays = 1_461

    /// Calls `body` with each row of the series, oldest first, reading four years of rates at
    /// a time: memory stays flat however long the range. Returns the columns, the base and the
    /// days missing from the range (see ``series(_:from:to:base:partial:)``).
    @discardableResult
    public func eachSeriesRow(_ currencies: [String], from: CalendarDay, to: CalendarDay, base: String = "EUR", partial: Bool = false,
                              _ body: (SeriesTable.Row) throws -> Void) throws -> (codes: [String], base: String, missing: [CalendarDay]) {
        let codes = try currencies.map(knownCurrency)
        let baseCode = try knownCurrency(base)
        let missing = try checkComplete(from: from, to: to, partial: partial)
        let stored = Array(Set(codes + [baseCode]).subtracting(["EUR"]))
        let column = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        var count = 0
        var windowStart = from
        while windowStart <= to {
            let windowEnd = min(windowStart.adding(days: Self.seriesWindowDays - 1), to)
            let start = windowStart, end = windowEnd
            // Values, not managed objects: each rate is read once.
            let rates = try context.fetchValues(FetchRequest<Eurofxrefhist>(
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
    public func stats(_ currency: String, from: CalendarDay, to: CalendarDay, base: String = "EUR",
                      partial: Bool = false) throws -> RateStats {
        let table = try series([currency], from: from, to: to, base: base, partial: partial)
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
        let mean = try DecimalMath.divide(sum, Decimal(points.count))
        let change = DecimalMath.round(try DecimalMath.divide((last.rate - first.rate) * 100, first.rate), places: 2)
        return RateStats(currency: table.currencies[0], from: from, to: to, days: points.count, first: first, last: last,
                         minimum: minimum, maximum: maximum, mean: mean, changePercent: change, missing: table.missing, base: table.base)
    }

    /// The rates of the newest day (of `currencies`, or all).
    public func latest(_ currencies: [String]? = nil) throws -> LatestRates {
        let codes = try currencies.map { try $0.map(knownCurrency) }
        let (_, last) = try bounds()
        let date = last
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
        let (firstDate, lastDate, rates, days, currencies) = try context.aggregate(
            FetchRequest<Eurofxrefhist>(), .minimum(\.date), .maximum(\.date), .count, .countDistinct(\.date), .countDistinct(\.currencySymbol))
        let first = firstDate, last = lastDate
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
        return StoreStatus(firstDay: first, lastDay: last, rates: rates, days: days, currencies: currencies,
                           dueDay: due, missingBusinessDays: missing, holes: holes, ageDays: last.map { max(0, due.days(since: $0)) } ?? 0,
                           lastRun: lastRun)
    }

    /// The corrections the store recorded (since model version 2), newest first; only those of
    /// `currency`, and of rates of `since` or later, when given.
    public func corrections(currency: String? = nil, since: CalendarDay? = nil) throws -> [CorrectionRecord] {
        var request = FetchRequest<RateCorrection>()
        request.shouldRefreshRefetchedObjects = true
        let records = try context.fetch(request).compactMap { correction -> CorrectionRecord? in
            guard let rate = correction.rate, let run = correction.run else { return nil }
            let day = rate.date
            if let currency, rate.currencySymbol != currency { return nil }
            if let since, day < since { return nil }
            return CorrectionRecord(day: day, currency: rate.currencySymbol, oldRate: correction.oldRate, newRate: correction.newRate,
                                    correctedAt: run.finishedAt ?? run.startedAt, source: run.source)
        }
        return records.sorted {
            if $0.correctedAt != $1.correctedAt { return $0.correctedAt > $1.correctedAt }
            if $0.day != $1.day { return $0.day > $1.day }
            return $0.currency < $1.currency
        }
    }
}
