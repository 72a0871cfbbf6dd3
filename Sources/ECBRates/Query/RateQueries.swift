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
    /// Whether the currencies the euro replaced have their fixed conversion rate from the day
    /// they joined (``EuroConversionRate``): true, but for Frankfurter's API, which answers
    /// from the ECB's rates alone.
    public var usesFixedConversionRates = true
    let now: @Sendable () -> Date

    /// Queries on `context`.
    public init(context: ManagedObjectContext, now: @escaping @Sendable () -> Date = { Date() }) {
        self.context = context
        self.now = now
        publications = StorePublications(context: context)
    }

    /// Queries that keep the days they read (up to `cachedDays` of them) and the store's bounds
    /// and currencies: many questions in a row (a batch conversion) cost a dictionary read each
    /// once their days are in. Their answers are those of the store when each day was first
    /// read; make new queries to see later imports.
    public init(context: ManagedObjectContext, cachedDays: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.context = context
        self.now = now
        publications = CachedPublications(context: context, capacity: cachedDays)
    }

    /// How the publications are read: straight from the store, or through the cache.
    let publications: any PublicationReader

    // MARK: What the store holds

    /// The first and last day the store holds.
    public func bounds() throws -> (first: CalendarDay, last: CalendarDay) {
        try publications.bounds()
    }

    /// Each currency the store holds, with its first and last day and its number of rates.
    public func currencies() throws -> [CurrencySummary] {
        try publications.currencies()
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
        if try publications.keptSummary(of: code) != nil { return code }
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
}
