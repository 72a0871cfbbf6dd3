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
    private var days: [CalendarDay: [String: Decimal]] = [:]
    private var order: [CalendarDay] = []
    private var next = 0
    /// The store's first and last day, once read.
    var bounds: (first: CalendarDay, last: CalendarDay)?
    /// Every code the store holds, once read.
    var codes: Set<String>?

    init(context: ManagedObjectContext, capacity: Int) {
        self.context = context
        self.capacity = max(16, capacity)
    }

    /// The rates published on `day` by code (empty: nothing was published, or not stored).
    func rates(on day: CalendarDay) throws -> [String: Decimal] {
        if let rates = days[day] { return rates }
        let date = day.date
        var rates: [String: Decimal] = [:]
        for rate in try context.fetchValues(FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date == date }),
                                            properties: ["currencySymbol", "exchangeRate"]) {
            if case .string(let code) = rate[0], case .decimal(let value) = rate[1] { rates[code] = value }
        }
        // A ring of `capacity` days: the slot of the oldest read is reused.
        if order.count < capacity {
            order.append(day)
        } else {
            days[order[next]] = nil
            order[next] = day
            next = (next + 1) % capacity
        }
        days[day] = rates
        return rates
    }
}
