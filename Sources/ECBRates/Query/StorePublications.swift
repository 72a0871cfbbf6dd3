import EurofxrefFeed
import Foundation
import ManagedStore

/// The publications read straight from the store, a small query each (on the indexes on
/// date and on date and currency): what a single question reads.
final class StorePublications: PublicationReader {
    /// The context read.
    let context: ManagedObjectContext

    /// Reading `context`.
    init(context: ManagedObjectContext) {
        self.context = context
    }

    func bounds() throws -> (first: CalendarDay, last: CalendarDay) {
        let (first, last) = try context.aggregate(FetchRequest<Eurofxrefhist>(), .minimum(\.date), .maximum(\.date))
        guard let first, let last else { throw QueryError.emptyStore }
        return (first, last)
    }

    func currencies() throws -> [CurrencySummary] {
        try context.aggregate(
            FetchRequest<Eurofxrefhist>(), groupedBy: \.currencySymbol, .minimum(\.date), .maximum(\.date), .count
        )
        .compactMap { code, first, last, count in
            guard let first, let last else { return nil }
            return CurrencySummary(code: code, firstDay: first, lastDay: last, rates: count)
        }
    }

    func keptSummary(of code: String) throws -> CurrencySummary? { nil }

    func rateIfAny(_ code: String, on day: CalendarDay) throws -> Decimal? {
        let date = day
        var request = FetchRequest<Eurofxrefhist>(
            predicate: #Predicate { $0.date == date && $0.currencySymbol == code })
        request.fetchLimit = 1
        return try context.fetch(request).first?.exchangeRate
    }

    func dayRates(on day: CalendarDay) throws -> DayRates? { nil }

    func isPublicationDay(_ day: CalendarDay) throws -> Bool {
        let date = day
        var request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date })
        request.fetchLimit = 1
        return try context.count(for: request) > 0
    }

    func currencies(publishedOn day: CalendarDay) throws -> [String] {
        let date = day
        return try context.aggregate(
            FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date }), groupedBy: \.currencySymbol, .count
        )
        .map(\.0).sorted()
    }

    func storedDays(from: CalendarDay, to: CalendarDay) throws -> Set<CalendarDay> {
        let (start, end) = (from, to)
        let rows = try context.aggregate(
            FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date >= start && $0.date <= end }),
            groupedBy: \.date, .count)
        return Set(rows.map(\.0))
    }

    func publication(
        of code: String, nextTo day: CalendarDay, after: Bool, within window: Int
    ) throws -> (day: CalendarDay, rate: Decimal?)? {
        let (low, high) =
            after ? (day.adding(days: 1), day.adding(days: window)) : (day.adding(days: -window), day.adding(days: -1))
        let request = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date >= low && $0.date <= high })
        let nearest =
            after ? try context.aggregate(request, .minimum(\.date)) : try context.aggregate(request, .maximum(\.date))
        guard let found = nearest else { return nil }
        return (found, try rateIfAny(code, on: found))
    }

    func leg(
        _ code: String, on day: CalendarDay, fallback: RateFallback, resolve: () throws -> RateLeg
    ) throws -> RateLeg {
        try resolve()
    }
}
