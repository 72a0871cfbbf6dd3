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
    /// As of today (a day's last second, the form `--as-of 2026-11-27` takes) is as of now
    /// (``AsOfMoment/resolved(_:now:)``: the snapshot's ``asOf`` says the moment used); any other
    /// moment to come is refused, by `now` (default: the real clock, which the import records are
    /// kept by).
    public func asOf(_ moment: Date, now: Date = Date()) throws -> RatesStore {
        let moment = AsOfMoment.resolved(moment, now: now)
        if moment > now { throw QueryError.asOfFuture(moment: moment, now: now) }
        let snapshot = try RatesStore(emptySnapshotAsOf: moment)
        let writer = snapshot.container.newBackgroundContext()
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            let runs = try context.fetch(FetchRequest<ImportRun>(sortBy: [SortDescriptor(\.startedAt)]))
            var visibleRuns = Set<ManagedObjectID>()
            var unrecordedEnd: Date?
            for (index, run) in runs.enumerated() {
                // A run's end: its own, else (killed) the start of the next, else (running) now.
                let end = run.finishedAt ?? (index + 1 < runs.count ? runs[index + 1].startedAt : Date())
                let changed = run.inserted + run.corrected > 0 || run.outcome == .running || run.outcome == .interrupted
                if changed && run.startedAt <= moment && moment < end {
                    throw QueryError.asOfDuringImport(
                        moment: moment, source: run.source, started: run.startedAt, ended: run.finishedAt)
                }
                if !run.recordsChanges {
                    unrecordedEnd = max(unrecordedEnd ?? end, end)
                } else if end <= moment {
                    visibleRuns.insert(run.objectID)
                }
            }
            // Before the first import that stored anything ended, the store held nothing: said so,
            // rather than "no rates yet" (which reads as if it held none now).
            if visibleRuns.isEmpty, unrecordedEnd == nil,
                let first = runs.first(where: { $0.inserted > 0 && $0.recordsChanges }),
                let ended = first.finishedAt, moment < ended
            {
                throw QueryError.asOfBeforeFirstImport(moment: moment, source: first.source, ended: ended)
            }
            // Rates an earlier release stored carry no run: they count from the end of its last
            // import, or, with no run on record at all, from the first recording run's start.
            if let since = unrecordedEnd ?? runs.first(where: \.recordsChanges)?.startedAt
                ?? (runs.isEmpty ? Date() : nil), moment < since
            {
                var unrecorded = FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.importRun == nil })
                unrecorded.fetchLimit = 1
                if try context.count(for: unrecorded) > 0 {
                    throw QueryError.asOfBeforeRecord(moment: moment, since: since)
                }
            }
            // What later runs corrected is undone: the oldest later correction's old value is the
            // value the rate had at the moment.
            struct Key: Hashable { let day: CalendarDay; let currency: String }
            var undo: [Key: Decimal] = [:]
            let later = try context.fetch(FetchRequest<RateCorrection>()).compactMap {
                correction -> (when: Date, key: Key, old: Decimal)? in
                guard let run = correction.run, !visibleRuns.contains(run.objectID), let rate = correction.rate else {
                    return nil
                }
                return (run.startedAt, Key(day: rate.date, currency: rate.currencySymbol), correction.oldRate)
            }.sorted { $0.when < $1.when }
            for correction in later where undo[correction.key] == nil { undo[correction.key] = correction.old }
            // The rates, a few years at a time (memory stays flat whatever the history's length),
            // into the snapshot.
            let (first, last) = try context.aggregate(FetchRequest<Eurofxrefhist>(), .minimum(\.date), .maximum(\.date))
            guard let first, let last else { return }
            var windowStart = first
            while windowStart <= last {
                let windowEnd = min(windowStart.adding(days: RateQueries.seriesWindowDays - 1), last)
                let (low, high) = (windowStart, windowEnd)
                let rows = try context.fetchValues(
                    FetchRequest<Eurofxrefhist>(predicate: #Predicate { $0.date >= low && $0.date <= high }),
                    \.date, \.currencySymbol, \.exchangeRate, \.importRun?.objectID)
                // One batch insert per window: no managed objects for rows nobody edits (a snapshot
                // of the whole history took seconds through objects).
                var next = rows.startIndex
                let request = BatchInsertRequest<Eurofxrefhist>(dictionaryHandler: { row in
                    while next < rows.endIndex {
                        let (date, currency, value, run) = rows[next]
                        next += 1
                        if let run, !visibleRuns.contains(run) { continue }
                        row = [
                            "date": date.attributeValue, "currencySymbol": .string(currency),
                            "exchangeRate": .decimal(undo[Key(day: date, currency: currency)] ?? value),
                        ]
                        return false
                    }
                    return true
                })
                try writer.performAndWait { _ = try writer.execute(request) }
                windowStart = windowEnd.adding(days: 1)
            }
        }
        return snapshot
    }
}
