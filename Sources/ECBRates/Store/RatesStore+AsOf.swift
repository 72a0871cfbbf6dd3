import EurofxrefFeed
import Foundation
import ManagedStore

extension RatesStore {
    /// The store as it was at `moment`: an in-memory store holding the rates the store held
    /// then, with the values they had then. Queries on it answer what they would have answered
    /// at that moment (`ecbrates … --as-of`).
    ///
    /// What counts: the rates of each import run that had finished by `moment` (a run's rates
    /// count from its end), with the corrections runs made later undone (a rate takes the old
    /// value of the first later correction). Throws ``QueryError/asOfDuringImport(moment:source:started:ended:)``
    /// for a moment while an import that changed the store was running (its chunks committed
    /// one by one, and when each did is not recorded), and ``QueryError/asOfBeforeRecord(moment:since:)``
    /// for a moment before the store recorded when rates arrived (a store written by an
    /// earlier release knows only its state at its last import).
    public func asOf(_ moment: Date) throws -> RatesStore {
        let context = container.newBackgroundContext()
        let rates = try context.performAndWait { () throws -> [(date: CalendarDay, currency: String, rate: Decimal)] in
            let runs = try context.fetch(FetchRequest<ImportRun>(sortBy: [SortDescriptor(\.startedAt)]))
            var visibleRuns = Set<ManagedObjectID>()
            var unrecordedEnd: Date?
            for (index, run) in runs.enumerated() {
                // A run's end: its own, else (killed) the start of the next, else (running) now.
                let end = run.finishedAt ?? (index + 1 < runs.count ? runs[index + 1].startedAt : Date())
                let changed = run.inserted + run.corrected > 0 || run.outcome == .running || run.outcome == .interrupted
                if changed && run.startedAt <= moment && moment < end {
                    throw QueryError.asOfDuringImport(moment: moment, source: run.source, started: run.startedAt, ended: run.finishedAt)
                }
                if !run.recordsChanges {
                    unrecordedEnd = max(unrecordedEnd ?? end, end)
                } else if end <= moment {
                    visibleRuns.insert(run.objectID)
                }
            }
            let rows = try context.fetchValues(FetchRequest<Eurofxrefhist>(), \.date, \.currencySymbol, \.exchangeRate, \.importRun?.objectID)
            var kept: [(date: CalendarDay, currency: String, rate: Decimal)] = []
            var index: [String: Int] = [:]
            var unrecorded = false
            for (date, currency, rate, run) in rows {
                if let run {
                    guard visibleRuns.contains(run) else { continue }
                } else {
                    unrecorded = true
                }
                index["\(date) \(currency)"] = kept.count
                kept.append((date, currency, rate))
            }
            if unrecorded, let since = unrecordedEnd, moment < since {
                throw QueryError.asOfBeforeRecord(moment: moment, since: since)
            }
            // Undo what later runs corrected: oldest correction first, so a rate corrected twice
            // since takes the value it had at the moment.
            var undone = Set<String>()
            let corrections = try context.fetch(FetchRequest<RateCorrection>())
            let later = corrections.compactMap { correction -> (when: Date, key: String, old: Decimal)? in
                guard let run = correction.run, !visibleRuns.contains(run.objectID), let rate = correction.rate else { return nil }
                return (run.startedAt, "\(rate.date) \(rate.currencySymbol)", correction.oldRate)
            }.sorted { $0.when < $1.when }
            for correction in later where !undone.contains(correction.key) {
                undone.insert(correction.key)
                if let position = index[correction.key] { kept[position].rate = correction.old }
            }
            return kept
        }
        return try RatesStore(snapshotOf: rates, asOf: moment)
    }
}
