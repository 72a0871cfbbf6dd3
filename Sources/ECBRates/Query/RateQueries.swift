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

    /// What the store said while one question is answered (``answeringOnce(_:)``): nil between
    /// questions.
    var memo: QuestionMemo?

    /// What one question has read of the store, so that it reads each thing once.
    struct QuestionMemo {
        /// The rates read, by code and day (nil inside: that day has no rate of the code).
        var rates: [RateKey: Decimal?] = [:]
        /// The store's bounds.
        var bounds: (first: CalendarDay, last: CalendarDay)?
        /// The codes found in the store.
        var known: Set<CurrencyCode> = []
        /// The legs resolved, by code, day and fallback.
        var legs: [LegKey: RateLeg] = [:]
    }

    /// A code on a day.
    struct RateKey: Hashable {
        let code: String
        let day: CalendarDay
    }

    /// A code on a day under a fallback.
    struct LegKey: Hashable {
        let code: String
        let day: CalendarDay
        let fallback: RateFallback
    }

    /// `body`, answering one question: what it reads twice (a code's rate to know the code, then
    /// for the answer or its fallback; the bounds; whether the store holds a code) is read from
    /// the store once. The memo is forgotten after, so a later question sees later imports.
    func answeringOnce<T>(_ body: () throws -> T) throws -> T {
        if memo != nil { return try body() }
        memo = QuestionMemo()
        defer { memo = nil }
        return try body()
    }

    // MARK: What the store holds

    /// The first and last day the store holds.
    public func bounds() throws -> (first: CalendarDay, last: CalendarDay) {
        if let known = memo?.bounds { return known }
        let bounds = try publications.bounds()
        memo?.bounds = bounds
        return bounds
    }

    /// Each currency the store holds, with its first and last day and its number of rates.
    public func currencies() throws -> [CurrencySummary] {
        try publications.currencies()
    }

    /// The code, if the store holds it (EUR always); else
    /// ``QueryError/unknownCurrency(_:suggestions:)`` with near matches.
    public func knownCurrency(_ code: CurrencyCode) throws -> CurrencyCode {
        try knownCurrency(code, likelyOn: nil)
    }

    /// ``knownCurrency(_:)``, answered from the index on (date, currency) when the currency has a
    /// rate on `day`; only otherwise by looking for any rate of it. A rate already read for the
    /// question being answered is not read again (``answeringOnce(_:)``).
    func knownCurrency(_ code: CurrencyCode, likelyOn day: CalendarDay?) throws -> CurrencyCode {
        if code.isEuro || memo?.known.contains(code) == true { return code }
        let text = code.text
        if try publications.keptSummary(of: text) != nil { return code }
        if let day, try rateIfAny(text, on: day) != nil { return code }
        var request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.currencySymbol == text })
        request.fetchLimit = 1
        if try context.count(for: request) > 0 {
            memo?.known.insert(code)
            return code
        }
        let known = try currencies().map(\.code) + ["EUR"]
        throw QueryError.unknownCurrency(text, suggestions: Self.nearMatches(to: text, among: known))
    }

    /// The code `text` spells (in any case), or, when it spells none, the refusal the store
    /// gives a code it does not hold (with near matches): for a door that reads codes in bulk
    /// (a batch's rows), where a malformed code is one more unknown currency.
    public func currencyCode(_ text: String) throws -> CurrencyCode {
        if let code = CurrencyCode(text) { return code }
        let upper = text.uppercased()
        let known = try currencies().map(\.code) + ["EUR"]
        throw QueryError.unknownCurrency(upper, suggestions: Self.nearMatches(to: upper, among: known))
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
