import EurofxrefFeed
import Foundation
import ManagedStore

/// The ECB's publications as a ``RateQueries`` with a cache reads them: each day's rates,
/// fetched in one request the first time the day is needed, kept for up to `capacity` days
/// (the oldest read is dropped first), and the store's bounds and currencies, read once. For
/// many questions in a row (a batch conversion): a lookup becomes a dictionary read.
///
/// The cache is a snapshot: what an import stores after a day was read is not seen. Use it for
/// one batch, then let it go.
final class CachedPublications: PublicationReader {
    /// What it reads the first time, and what it does not keep.
    private let store: StorePublications
    private var context: ManagedObjectContext { store.context }
    private let capacity: Int
    private var days: [CalendarDay: DayRates] = [:]
    private var order: [CalendarDay] = []
    private var next = 0
    /// The store's first and last day, once read.
    private var knownBounds: (first: CalendarDay, last: CalendarDay)?
    /// Every currency the store holds, with its first and last day, once read.
    private var currencySummaries: [String: CurrencySummary]?

    func bounds() throws -> (first: CalendarDay, last: CalendarDay) {
        if let knownBounds { return knownBounds }
        let read = try store.bounds()
        knownBounds = read
        return read
    }

    func currencies() throws -> [CurrencySummary] { try store.currencies() }

    func keptSummary(of code: String) throws -> CurrencySummary? {
        if let currencySummaries { return currencySummaries[code] }
        let read = Dictionary(uniqueKeysWithValues: try store.currencies().map { ($0.code, $0) })
        currencySummaries = read
        return read[code]
    }

    func rateIfAny(_ code: String, on day: CalendarDay) throws -> Decimal? { try rates(on: day)[code] }

    func dayRates(on day: CalendarDay) throws -> DayRates? { try rates(on: day) }

    func isPublicationDay(_ day: CalendarDay) throws -> Bool { try !rates(on: day).isEmpty }

    func currencies(publishedOn day: CalendarDay) throws -> [String] { try rates(on: day).codes }

    func storedDays(from: CalendarDay, to: CalendarDay) throws -> Set<CalendarDay> {
        // A month from the days kept; a longer span in one query.
        guard to.days(since: from) < 31 else { return try store.storedDays(from: from, to: to) }
        return Set(
            try (0...max(0, to.days(since: from))).map { from.adding(days: $0) }.filter { try !rates(on: $0).isEmpty })
    }

    func publication(
        of code: String, nextTo day: CalendarDay, after: Bool, within window: Int
    ) throws -> (day: CalendarDay, rate: Decimal?)? {
        for offset in 1...window {
            let other = day.adding(days: after ? offset : -offset)
            let rates = try rates(on: other)
            if !rates.isEmpty { return (other, rates[code]) }
        }
        return nil
    }

    /// Legs resolved so far (a day without a rate, with its fallback), or the error they gave.
    private var legs: [LegKey: Result<RateLeg, QueryError>] = [:]

    private struct LegKey: Hashable {
        let code: String
        let day: CalendarDay
        let fallback: RateFallback
    }

    /// The leg of `code` on `day` under `fallback`: remembered, or found by `resolve` (its
    /// answer or its ``QueryError`` kept, up to 100,000 legs, then forgotten all at once): a
    /// leg found once is found again (the cache's store does not change).
    func leg(
        _ code: String, on day: CalendarDay, fallback: RateFallback, resolve: () throws -> RateLeg
    ) throws -> RateLeg {
        let key = LegKey(code: code, day: day, fallback: fallback)
        if let known = legs[key] { return try known.get() }
        if legs.count >= 100_000 { legs.removeAll(keepingCapacity: true) }
        do {
            let leg = try resolve()
            legs[key] = .success(leg)
            return leg
        } catch let error as QueryError {
            legs[key] = .failure(error)
            throw error
        }
    }

    /// Reading `context`, keeping up to `capacity` days.
    init(context: ManagedObjectContext, capacity: Int) {
        self.store = StorePublications(context: context)
        self.capacity = max(16, capacity)
    }

    /// Days read around a missing one, in one request: a quarter's rates (about 2,700 rows).
    static let window = 45

    /// The rates published on `day` by code (empty: nothing was published, or not stored).
    func rates(on day: CalendarDay) throws -> DayRates {
        if let rates = days[day] { return rates }
        // The days around it too, in one request: questions come in runs of nearby days.
        let low = day.adding(days: -Self.window), high = day.adding(days: Self.window)
        let start = low, end = high
        var found: [CalendarDay: DayRates] = [:]
        for (day, code, value) in try context.fetchValues(
            FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date >= start && $0.date <= end }),
            \.date, \.currencySymbol, \.exchangeRate)
        {
            if let rates = found[day] {
                rates.add(code, value)
            } else {
                let rates = DayRates()
                rates.add(code, value)
                found[day] = rates
            }
        }
        let none = DayRates()
        for offset in 0...(2 * Self.window) {
            let other = low.adding(days: offset)
            if days[other] == nil { remember(other, found[other] ?? none) }
        }
        return days[day] ?? found[day] ?? none
    }

    /// Keeps `rates` for `day`, dropping the oldest day kept when full.
    private func remember(_ day: CalendarDay, _ rates: DayRates) {
        // A ring of `capacity` days: the slot of the oldest read is reused.
        if order.count < capacity {
            order.append(day)
        } else {
            days[order[next]] = nil
            order[next] = day
            next = (next + 1) % capacity
        }
        days[day] = rates
    }
}
