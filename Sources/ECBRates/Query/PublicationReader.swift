import EurofxrefFeed
import Foundation

/// How ``RateQueries`` reads the ECB's publications: straight from the store
/// (``StorePublications``, a small query each), or through a cache that keeps the days it has
/// read (``CachedPublications``, for many questions in a row). The queries ask the same things of
/// either, with no branch on which it is.
protocol PublicationReader: AnyObject {
    /// The first and last day the store holds.
    func bounds() throws -> (first: CalendarDay, last: CalendarDay)
    /// Each currency the store holds, with its first and last day and its number of rates.
    func currencies() throws -> [CurrencySummary]
    /// The first and last day of `code` when this reader keeps the currencies (nil: it does not,
    /// or the store does not hold `code`; ask the store).
    func keptSummary(of code: String) throws -> CurrencySummary?
    /// The rate of `code` on `day`, if published.
    func rateIfAny(_ code: String, on day: CalendarDay) throws -> Decimal?
    /// The rates of `day` at once, when this reader reads them so (nil: it does not).
    func dayRates(on day: CalendarDay) throws -> DayRates?
    /// Whether the ECB published any rate on `day` (the store holds one).
    func isPublicationDay(_ day: CalendarDay) throws -> Bool
    /// The currencies with a rate on `day`, by code.
    func currencies(publishedOn day: CalendarDay) throws -> [String]
    /// The days from `from` to `to` that hold any rate.
    func storedDays(from: CalendarDay, to: CalendarDay) throws -> Set<CalendarDay>
    /// The ECB's last publication before `day` (or first after), within `window` days, with the
    /// rate of `code` in it if it has one.
    func publication(
        of code: String, nextTo day: CalendarDay, after: Bool, within window: Int
    ) throws -> (day: CalendarDay, rate: Decimal?)?
    /// The leg of `code` on `day` under `fallback`, found by `resolve` (a caching reader keeps
    /// what it found, or the ``QueryError`` it gave).
    func leg(
        _ code: String, on day: CalendarDay, fallback: RateFallback, resolve: () throws -> RateLeg
    ) throws -> RateLeg
}
