import EurofxrefFeed
import Foundation
import ManagedStore

/// The ECB's publications as a ``RateQueries`` with a cache has read them: each day's rates,
/// fetched in one request the first time the day is needed, kept for up to `capacity` days
/// (the oldest read is dropped first), and the store's bounds and currencies, read once. For
/// many questions in a row (a batch conversion): a lookup becomes a dictionary read.
///
/// The cache is a snapshot: what an import stores after a day was read is not seen. Use it for
/// one batch, then let it go.
final class PublicationCache {
    private let context: ManagedObjectContext
    private let capacity: Int
    private var days: [CalendarDay: DayRates] = [:]
    private var order: [CalendarDay] = []
    private var next = 0
    /// The store's first and last day, once read.
    var bounds: (first: CalendarDay, last: CalendarDay)?
    /// Every currency the store holds, with its first and last day, once read.
    private var currencySummaries: [String: CurrencySummary]?

    /// The currencies the store holds, by code (read once, through `queries`).
    func summaries(of queries: RateQueries) throws -> [String: CurrencySummary] {
        if let currencySummaries { return currencySummaries }
        let read = Dictionary(uniqueKeysWithValues: try queries.currencies().map { ($0.code, $0) })
        currencySummaries = read
        return read
    }

    /// Legs resolved so far (a day without a rate, with its fallback), or the error they gave.
    private var legs: [LegKey: Result<RateLeg, QueryError>] = [:]

    private struct LegKey: Hashable {
        let code: String
        let day: CalendarDay
        let fallback: RateFallback
    }

    /// The leg of `code` on `day` under `fallback`: remembered, or found by `resolve` (its
    /// answer or its ``QueryError`` kept, up to 100,000 legs, then forgotten all at once).
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

    init(context: ManagedObjectContext, capacity: Int) {
        self.context = context
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

/// One day's rates, found by a linear scan of packed codes: a day has at most a few dozen, and
/// comparing 4-byte integers beats hashing strings. A class, so that handing a day around costs
/// one reference count, not three.
final class DayRates {
    private var packed: [UInt32] = []
    private var names: [String] = []
    private var values: [Decimal] = []

    /// Whether the day holds no rate (nothing published, or not stored).
    var isEmpty: Bool { packed.isEmpty }

    /// The codes, in code order.
    var codes: [String] { names.sorted() }

    func add(_ code: String, _ value: Decimal) {
        packed.append(Self.pack(code))
        names.append(code)
        values.append(value)
    }

    /// The rate of `code`, if the day has one.
    subscript(code: String) -> Decimal? { self[packed: Self.pack(code)] }

    /// The rate of the code `key` packs (``pack(_:)``), if the day has one.
    subscript(packed key: UInt32) -> Decimal? {
        let index = packed.withUnsafeBufferPointer { codes in codes.firstIndex(of: key) }
        return index.map { values[$0] }
    }

    /// A code of up to four ASCII bytes as one integer (a longer string never matches a code).
    static func pack(_ code: String) -> UInt32 {
        var code = code
        return code.withUTF8 { bytes in
            guard bytes.count <= 4 else { return .max }
            var result: UInt32 = 0
            for byte in bytes { result = result << 8 | UInt32(byte) }
            return result
        }
    }
}
