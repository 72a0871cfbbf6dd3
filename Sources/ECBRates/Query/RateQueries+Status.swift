import EurofxrefFeed
import Foundation
import ManagedStore

/// What the store holds now: the newest day's rates, freshness, holes, corrections.
extension RateQueries {
    public func latest(_ currencies: [CurrencyCode]? = nil) throws -> LatestRates {
        let codes = try currencies.map { try $0.map { try knownCurrency($0).text } }
        let (_, last) = try bounds()
        let date = last
        let stored = try context.fetch(
            FetchRequest<Eurofxrefhist>(
                predicate: #Predicate { $0.date == date },
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
            FetchRequest<Eurofxrefhist>(), .minimum(\.date), .maximum(\.date), .count, .countDistinct(\.date),
            .countDistinct(\.currencySymbol))
        let first = firstDate, last = lastDate
        let due = TargetCalendar.latestDueDay(at: now())
        let missing = last.map { TargetCalendar.businessDays(after: $0, through: due) } ?? []
        let holes = try self.holes()
        let (start, isAsked) = try historyStart()
        var runRequest = FetchRequest<ImportRun>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        runRequest.fetchLimit = 1
        // The run log is written by contexts this one does not merge: take the stored values.
        runRequest.shouldRefreshRefetchedObjects = true
        let lastRun = try context.fetch(runRequest).first.map { run in
            // A run still marked running whose process is gone was killed (or its machine
            // stopped): say so, as the next import will record it.
            let gone = run.outcome == .running && kill(pid_t(run.processID), 0) == -1 && errno == ESRCH
            // What a killed run stored, counted in the store (it could not record it).
            let stored = gone ? try ImportRunLog.storedCounts(of: run, in: context).rates : nil
            return ImportRunSummary(
                source: run.source, startedAt: run.startedAt, finishedAt: run.finishedAt,
                outcome: gone ? ImportRun.Outcome.interrupted.rawValue : run.outcomeText,
                rates: stored ?? Int(run.rates), inserted: stored ?? Int(run.inserted), corrected: Int(run.corrected),
                error: gone ? ImportRun.interruptedMessage(processID: run.processID) : run.errorMessage,
                processID: Int(run.processID))
        }
        return StoreStatus(
            firstDay: first, lastDay: last, rates: rates, days: days, currencies: currencies,
            dueDay: due, missingBusinessDays: missing, holes: holes,
            history: HistoryCoverage(shouldBegin: start, isAsked: isAsked, begins: first),
            ageDays: last.map { max(0, due.days(since: $0)) } ?? 0,
            lastRun: lastRun)
    }

    /// The corrections the store recorded (since model version 2), newest first; only those of
    /// `currency`, and of rates of `since` or later, when given.
    public func corrections(currency: CurrencyCode? = nil, since: CalendarDay? = nil) throws -> [CorrectionRecord] {
        // An unknown code is refused (as every query refuses it), not answered with no corrections.
        let currency = try currency.map { try knownCurrency($0).text }
        var request = FetchRequest<RateCorrection>()
        request.shouldRefreshRefetchedObjects = true
        let records = try context.fetch(request).compactMap { correction -> CorrectionRecord? in
            guard let rate = correction.rate, let run = correction.run else { return nil }
            let day = rate.date
            if let currency, rate.currencySymbol != currency { return nil }
            if let since, day < since { return nil }
            return CorrectionRecord(
                day: day, currency: rate.currencySymbol, oldRate: correction.oldRate, newRate: correction.newRate,
                correctedAt: run.finishedAt ?? run.startedAt, source: run.source)
        }
        return records.sorted {
            if $0.correctedAt != $1.correctedAt { return $0.correctedAt > $1.correctedAt }
            if $0.day != $1.day { return $0.day > $1.day }
            return $0.currency < $1.currency
        }
    }
}
