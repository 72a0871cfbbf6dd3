import EurofxrefFeed
import Foundation
import ManagedStore

/// Rates and conversions on a day: the day used, and why, for each leg.
extension RateQueries {
    /// The rate of `currency` against `base` on `day` (default: the newest stored day); on a day
    /// without one, the `fallback` decides, for each leg (currency and base) on its own.
    public func rate(
        _ currency: CurrencyCode, on day: CalendarDay? = nil, base: CurrencyCode = .euro,
        fallback: RateFallback = .previous
    ) throws -> RateAnswer {
        try answeringOnce { try answerRate(currency, on: day, base: base, fallback: fallback) }
    }

    /// ``rate(_:on:base:fallback:)``'s answer, inside ``answeringOnce(_:)``.
    private func answerRate(
        _ currency: CurrencyCode, on day: CalendarDay?, base: CurrencyCode, fallback: RateFallback
    ) throws -> RateAnswer {
        // A day on which both have a rate is answered by those rates alone: it lies within the
        // bounds, both codes are known, and a currency quoted that day has not ended.
        if usesFixedConversionRates,
            EuroConversionRate.of(currency.text) != nil || EuroConversionRate.of(base.text) != nil
        {
            return try rateWithFixedLeg(currency, on: day, base: base, fallback: fallback)
        }
        // No day: the newest stored, asked the same way (a currency quoted on it is known, and
        // its rate is read once, not once to know the code and again for the answer).
        let known = day == nil ? try bounds() : nil
        let day = day ?? known!.last
        // Read a day at a time (a cache), the day's rates are looked up once for both codes.
        let dayRates = try publications.dayRates(on: day)
        func published(_ code: CurrencyCode, _ day: CalendarDay) throws -> Decimal? {
            if code.isEuro { return 1 }
            if let dayRates { return dayRates[packed: DayRates.pack(code.text)] }
            return try rateIfAny(code.text, on: day)
        }
        if !currency.isEuro || !base.isEuro,
            let currencyRate = try published(currency, day), let baseRate = try published(base, day)
        {
            let leg = { (code: CurrencyCode, rate: Decimal) in
                code.isEuro ? RateLeg.euro(on: day) : RateLeg.published(code.text, rate, on: day)
            }
            return RateAnswer(
                currencyLeg: leg(currency, currencyRate), baseLeg: leg(base, baseRate), asked: day, reason: nil)
        }
        let (first, last) = try known ?? bounds()
        let code = try knownCurrency(currency, likelyOn: last)
        let baseCode = try knownCurrency(base, likelyOn: last)
        let asked = day
        // The euro against itself needs no published rate (rate_oracle.py rule 1: EUR is 1).
        let onlyEuro = code.isEuro && baseCode.isEuro
        if asked < first && !onlyEuro && !Self.reachesForward(from: asked, to: first, fallback: fallback) {
            throw QueryError.beforeFirstDay(asked: asked, first: first, last: last, gap: try gap(reaching: asked))
        }
        if asked > last { try checkFresh(asked: asked, newest: last) }
        let currencyLeg = try resolve(code.text, on: asked, fallback: fallback, newest: last)
        let baseLeg = try resolve(baseCode.text, on: asked, fallback: fallback, newest: last)
        let lead = code.isEuro ? baseCode : code
        return RateAnswer(
            currencyLeg: currencyLeg, baseLeg: baseLeg, asked: asked,
            reason: Self.reason(for: asked, currency: lead.text, newest: last))
    }

    /// The rates of `currencies` (default: every currency the ECB quoted in the publication
    /// that answers for `day`) against `base` on `day` (default: the newest stored day), each
    /// answered as ``rate(_:on:base:fallback:)`` answers it, in the order asked for (or by code).
    public func rates(
        _ currencies: [CurrencyCode]? = nil, on day: CalendarDay? = nil, base: CurrencyCode = .euro,
        fallback: RateFallback = .previous
    ) throws -> [RateAnswer] {
        // A base the euro replaced is known by its fixed rate, not by the store.
        let fixedBase = usesFixedConversionRates && EuroConversionRate.of(base.text) != nil
        let baseCode = fixedBase ? base : try knownCurrency(base)
        // Every currency of the publication, the euro too when quoted against another.
        let codes =
            try currencies
            ?? (quotedCurrencies(on: day ?? bounds().last, fallback: fallback) + [.euro]).filter { $0 != baseCode }
            .sorted()
        return try codes.map { try rate($0, on: day, base: baseCode, fallback: fallback) }
    }

    /// The currencies in the ECB's publication that answers for `day` under `fallback`: that
    /// day's, or the one the fallback takes (for an interpolation, those in both), by code.
    public func quotedCurrencies(on day: CalendarDay, fallback: RateFallback) throws -> [CurrencyCode] {
        let (first, last) = try bounds()
        if day < first && !Self.reachesForward(from: day, to: first, fallback: fallback) {
            throw QueryError.beforeFirstDay(asked: day, first: first, last: last, gap: try gap(reaching: day))
        }
        if day > last { try checkFresh(asked: day, newest: last) }
        if try isPublicationDay(day) { return try currencies(publishedOn: day).map(CurrencyCode.init(stored:)) }
        try checkNoHole(from: day, to: day, asked: day, newest: last)
        let before = try publication(of: "EUR", nextTo: day, after: false)?.day
        let after = try publication(of: "EUR", nextTo: day, after: true)?.day
        var days: [CalendarDay]
        switch fallback {
        case .none:
            throw QueryError.noRateOnDay(
                currency: "ECB", day: day, reason: Self.reason(for: day, currency: "any", newest: last))
        case .previous: days = before.map { [$0] } ?? []
        case .next:
            if after == nil && day > last { throw nothingPublished(after: day, currency: "ECB", newest: last) }
            days = after.map { [$0] } ?? []
        case .nearest:
            days = [before, after].compactMap { $0 }.sorted { abs($0.days(since: day)) < abs($1.days(since: day)) }
                .prefix(1).map { $0 }
        case .interpolate:
            if after == nil && day > last { throw nothingPublished(after: day, currency: "ECB", newest: last) }
            days = before.map { before in after.map { [before, $0] } ?? [] } ?? []
        }
        guard let firstDay = days.first else { throw QueryError.noRatesInRange(currencies: [], from: day, to: day) }
        var codes = Set(try currencies(publishedOn: firstDay))
        for other in days.dropFirst() { codes.formIntersection(try currencies(publishedOn: other)) }
        // A currency that ended (or paused) between the publication and the day has no rate on
        // the day: it is not among the day's currencies (no fallback crosses its end).
        return codes.filter { code in
            days.allSatisfy { CurrencyLifecycle.interruption(of: code, between: $0, and: day) == nil }
        }.sorted().map(CurrencyCode.init(stored:))
    }

    /// The currencies with a rate on `day`, by code.
    func currencies(publishedOn day: CalendarDay) throws -> [String] {
        try publications.currencies(publishedOn: day)
    }

    /// Whether `fallback` may answer for `day`, before the first stored day, with that day's
    /// rates: `next` and `nearest` look up to ``RateFallback/window`` days ahead.
    ///
    /// Only across days the ECB published nothing on: a business day between `day` and the
    /// first stored day, from the ECB's first day on, is one the store lacks (a store that
    /// begins later, or an incomplete one), and the publication next to `day` is not known.
    static func reachesForward(from day: CalendarDay, to first: CalendarDay, fallback: RateFallback) -> Bool {
        guard fallback == .next || fallback == .nearest, first.days(since: day) <= RateFallback.window else {
            return false
        }
        return TargetCalendar.businessDays(after: day.adding(days: -1), through: first.adding(days: -1)).allSatisfy {
            $0 < TargetCalendar.firstPublicationDay
        }
    }

    /// `amount` of `from` in `to` on `day`: computed from the published rates (or the
    /// interpolated ones) with no rounding on the way, then rounded once, half away from zero,
    /// to `to`'s minor units (or `precision` places).
    public func convert(
        _ amount: Decimal, from: CurrencyCode, to: CurrencyCode, on day: CalendarDay? = nil,
        fallback: RateFallback = .previous, precision: Int? = nil
    ) throws -> ConversionAnswer {
        guard DecimalMath.significantDigits(amount) <= DecimalMath.amountDigits else {
            throw QueryError.inexact("\(DecimalText.format(amount)) \(from) in \(to)")
        }
        let answer = try rate(to, on: day, base: from, fallback: fallback)
        let places = precision ?? MinorUnits.places(for: answer.currency)
        var conversion = ConversionAnswer(
            amount: amount, result: try answer.converting(amount, places: places), rate: answer, places: places)
        conversion.throughEuro = try answer.euroAmount(of: amount)
        return conversion
    }

    /// A rate one of whose currencies the euro replaced: its leg is the irrevocable conversion
    /// rate from the day it applies (no store needed), and its ECB rates before, if the store
    /// has them; the other leg as ``rate(_:on:base:fallback:)`` finds it.
    func rateWithFixedLeg(
        _ currency: CurrencyCode, on day: CalendarDay?, base: CurrencyCode, fallback: RateFallback
    ) throws -> RateAnswer {
        let newest = try? bounds().last
        let asked = day ?? newest ?? TargetCalendar.today(at: now())
        func leg(_ code: CurrencyCode) throws -> RateLeg {
            if code.isEuro { return .euro(on: asked) }
            if let fixed = EuroConversionRate.fixed(code.text, on: asked) { return .fixed(fixed, on: asked) }
            let (first, last) = try bounds()
            let known: CurrencyCode
            do {
                known = try knownCurrency(code, likelyOn: last)
            } catch QueryError.unknownCurrency where EuroConversionRate.of(code.text) != nil {
                let since = EuroConversionRate.of(code.text)!.since
                throw QueryError.notQuoted(
                    currency: code.text, day: asked, lastBefore: nil, nextAfter: nil,
                    why:
                        "its conversion rate to the euro applies from \(since), and the ECB's reference rates here do not include it before"
                )
            }
            if asked < first && !Self.reachesForward(from: asked, to: first, fallback: fallback) {
                throw QueryError.beforeFirstDay(asked: asked, first: first, last: last, gap: try gap(reaching: asked))
            }
            if asked > last { try checkFresh(asked: asked, newest: last) }
            return try resolve(known.text, on: asked, fallback: fallback, newest: last)
        }
        let currencyLeg = try leg(currency), baseLeg = try leg(base)
        let lead = currency.isEuro ? base : currency
        let reason = newest.map { Self.reason(for: asked, currency: lead.text, newest: $0) }
        return RateAnswer(currencyLeg: currencyLeg, baseLeg: baseLeg, asked: asked, reason: reason)
    }

    /// How the store's history is incomplete, when `day` is before its first day but on or after
    /// where its history should begin; nil when the day is outside its history.
    func gap(reaching day: CalendarDay) throws -> String? {
        let coverage = try historyCoverage()
        return day >= coverage.shouldBegin ? coverage.gapText : nil
    }

    /// Why `day` has no rate of its own for `currency`.
    static func reason(for day: CalendarDay, currency: String, newest: CalendarDay) -> String {
        if let closure = TargetCalendar.closure(on: day) { return closure }
        if day < TargetCalendar.firstPublicationDay {
            return "before the ECB's first reference rates, of \(TargetCalendar.firstPublicationDay)"
        }
        if day > newest { return "its rates are not out yet" }
        return "no \(currency) rate was published that day"
    }

    /// Why a fallback that looks forward (`next`, `interpolate`) finds no publication after
    /// `day`, a day after the newest stored one: the store is stale when the ECB has published a
    /// business day after its newest (an import would find the rate), else none is out yet.
    func nothingPublished(after day: CalendarDay, currency: String, newest: CalendarDay) -> QueryError {
        let now = now()
        let due = TargetCalendar.businessDays(after: newest, through: TargetCalendar.today(at: now)).first {
            TargetCalendar.publicationTime(of: $0) <= now
        }
        if let missing = due { return .staleStore(asked: day, newest: newest, missing: missing) }
        return .notYetPublished(currency: currency, day: day, newest: newest)
    }

    /// Throws unless the store is fresh enough to answer for `asked`, a day after its newest.
    func checkFresh(asked: CalendarDay, newest: CalendarDay) throws {
        let now = now()
        if asked > TargetCalendar.today(at: now) { throw QueryError.futureDay(asked: asked, newest: newest) }
        let due = TargetCalendar.businessDays(after: newest, through: asked).filter {
            TargetCalendar.publicationTime(of: $0) <= now
        }
        if let missing = due.first { throw QueryError.staleStore(asked: asked, newest: newest, missing: missing) }
    }

    /// The leg of `code` for `day`: its rate that day, or the fallback's. A fallback only looks
    /// at the ECB's publications next to the day (the last before it, the first after it), and
    /// the currency must be in the one it uses: a currency the ECB left out of a publication
    /// (ended, suspended, not yet quoted) is never answered with an older or newer rate. Nor is
    /// a day the ``CurrencyLifecycle`` table puts past a currency's end.
}
