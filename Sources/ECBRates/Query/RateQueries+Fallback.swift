import EurofxrefFeed
import Foundation
import ManagedStore

/// A day without a rate: the fallbacks, the holes they must not cross, the currencies' ends.
extension RateQueries {
    func resolve(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay) throws -> RateLeg {
        if code == "EUR" { return .euro(on: day) }
        let key = LegKey(code: code, day: day, fallback: fallback)
        if let known = memo?.legs[key] { return known }
        let leg = try publications.leg(code, on: day, fallback: fallback) {
            try resolveLeg(code, on: day, fallback: fallback, newest: newest)
        }
        memo?.legs[key] = leg
        return leg
    }

    func resolveLeg(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay) throws -> RateLeg
    {
        if let interruption = CurrencyLifecycle.interruption(of: code, on: day) {
            throw try notQuoted(code, on: day, why: interruption.why)
        }
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

    func notQuoted(_ code: String, on day: CalendarDay, why: String?) throws -> QueryError {
        let why = why ?? CurrencyLifecycle.interruption(of: code, on: day)?.why
        // Outside the currency's first and last days, those are the answer (from the list of
        // currencies, when the reader keeps one); inside them, the store is asked.
        if let summary = try publications.keptSummary(of: code), day < summary.firstDay || day > summary.lastDay {
            return .notQuoted(
                currency: code, day: day, lastBefore: day > summary.lastDay ? summary.lastDay : nil,
                nextAfter: day < summary.firstDay ? summary.firstDay : nil, why: why)
        }
        return .notQuoted(
            currency: code, day: day, lastBefore: try nearest(code, to: day, after: false, within: nil)?.day,
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
        try publications.storedDays(from: from, to: to)
    }

    /// Business days inside the stored range without any rate: holes an import left.
    public func holes() throws -> [CalendarDay] {
        guard let (first, last) = try? bounds() else { return [] }
        let stored = try storedDays(from: first, to: last)
        return TargetCalendar.businessDays(after: first, through: last).filter { !stored.contains($0) }
    }

    func fallbackLeg(_ code: String, on day: CalendarDay, fallback: RateFallback, newest: CalendarDay) throws -> RateLeg
    {
        if fallback == .none {
            throw QueryError.noRateOnDay(
                currency: code, day: day, reason: Self.reason(for: day, currency: code, newest: newest))
        }
        // The ECB's publications on either side of the day, within the window, and the
        // currency's rate in each (nil: the ECB published that day without it).
        let before = try publication(of: code, nextTo: day, after: false)
        let after = try publication(of: code, nextTo: day, after: true)
        func quoted(_ found: (day: CalendarDay, rate: Decimal?)?) -> RateLeg.Published? {
            guard let found, let rate = found.rate,
                CurrencyLifecycle.interruption(of: code, between: found.day, and: day) == nil
            else { return nil }
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
            if after == nil && day > newest {
                throw nothingPublished(after: day, currency: code, newest: newest)
            }
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
            if after == nil && day > newest {
                throw nothingPublished(after: day, currency: code, newest: newest)
            }
        }
        throw try notQuoted(code, on: day, why: nil)
    }

    /// The ECB's last publication before `day` (or first after), within the fallback window,
    /// with the rate of `code` in it if it has one.
    func publication(
        of code: String, nextTo day: CalendarDay, after: Bool
    ) throws -> (day: CalendarDay, rate: Decimal?)? {
        try publications.publication(of: code, nextTo: day, after: after, within: RateFallback.window)
    }

    /// Whether the ECB published any rate on `day` (the store holds one).
    func isPublicationDay(_ day: CalendarDay) throws -> Bool {
        try publications.isPublicationDay(day)
    }

    /// The rate of `code` on `day`, if published.
    func rateIfAny(_ code: String, on day: CalendarDay) throws -> Decimal? {
        guard memo != nil else { return try publications.rateIfAny(code, on: day) }
        let key = RateKey(code: code, day: day)
        if let known = memo?.rates[key] { return known }
        let rate = try publications.rateIfAny(code, on: day)
        memo?.rates[key] = .some(rate)
        return rate
    }

    /// The closest day before (or after) `day` with a rate for `code`, within `window` days.
    func nearest(
        _ code: String, to day: CalendarDay, after: Bool, within window: Int?
    ) throws -> (day: CalendarDay, rate: Decimal)? {
        let date = day
        var request: FetchRequest<Eurofxrefhist>
        if after {
            let limit = window.map { day.adding(days: $0) } ?? CalendarDay.latest
            request = FetchRequest(
                predicate: #Predicate { $0.currencySymbol == code && $0.date > date && $0.date <= limit },
                sortBy: [SortDescriptor(\.date)])
        } else {
            let limit = window.map { day.adding(days: -$0) } ?? CalendarDay.earliest
            request = FetchRequest(
                predicate: #Predicate { $0.currencySymbol == code && $0.date < date && $0.date >= limit },
                sortBy: [SortDescriptor(\.date, order: .reverse)])
        }
        request.fetchLimit = 1
        return try context.fetch(request).first.map { ($0.day, $0.exchangeRate) }
    }
}
