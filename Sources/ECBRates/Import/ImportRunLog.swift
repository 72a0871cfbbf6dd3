import EurofxrefFeed
import Foundation
import ManagedStore

/// Records import runs in the store (through a background context of their own).
enum ImportRunLog {
    /// Records the start of a run. With `markingInterrupted` (the caller holds the import
    /// lock), runs still marked running belonged to processes that died, and are marked
    /// interrupted.
    static func begin(
        in store: RatesStore, source: String, requestedFrom: CalendarDay? = nil, markingInterrupted: Bool = true
    ) throws -> ManagedObjectID {
        let context = store.container.newBackgroundContext()
        return try context.performAndWait { () throws -> ManagedObjectID in
            let running = ImportRun.Outcome.running.rawValue
            if markingInterrupted {
                for run in try context.fetch(
                    FetchRequest<ImportRun>(predicate: #Predicate { $0.outcomeText == running }))
                {
                    run.outcome = .interrupted
                    run.errorMessage = ImportRun.interruptedMessage(processID: run.processID)
                    // Killed before it could say: what it stored is counted in the store.
                    let stored = try storedCounts(of: run, in: context)
                    run.days = Int64(stored.days)
                    run.rates = Int64(stored.rates)
                    run.inserted = Int64(stored.rates)
                }
            }
            let run = ImportRun(context: context)
            run.source = source
            run.startedAt = Date()
            run.outcome = .running
            run.processID = Int64(getpid())
            run.recordsChanges = true
            run.requestedFrom = requestedFrom
            try context.save()
            return run.objectID
        }
    }

    /// The days and rates `run` stored first, counted in the store: for a run killed before it
    /// could record them (its rates are the ones it inserted; corrections are not counted).
    static func storedCounts(of run: ImportRun, in context: ManagedObjectContext) throws -> (days: Int, rates: Int) {
        let started = run.startedAt, never = Date.distantFuture
        let (rates, days) = try context.aggregate(
            FetchRequest<Eurofxrefhist>(predicate: #Predicate { ($0.importRun?.startedAt ?? never) == started }),
            .count, .countDistinct(\.date))
        return (days, rates)
    }

    /// Records how a run ended.
    static func finish(
        _ id: ManagedObjectID, in store: RatesStore, outcome: ImportRun.Outcome, reports: [ImportReport],
        error: (any Error)?
    ) throws {
        let context = store.container.newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            guard let run = try? context.existingObject(with: id) as? ImportRun else { return }
            run.finishedAt = Date()
            run.outcome = outcome
            // What was read, as read: the automatic choice may have taken the history instead.
            if !reports.isEmpty { run.source = reports.map(\.source).joined(separator: " ") }
            run.days = Int64(reports.reduce(0) { $0 + $1.days })
            run.rates = Int64(reports.reduce(0) { $0 + $1.rates })
            run.inserted = Int64(reports.reduce(0) { $0 + $1.inserted })
            run.corrected = Int64(reports.reduce(0) { $0 + $1.corrected })
            run.unchanged = Int64(reports.reduce(0) { $0 + $1.unchanged })
            // A run that did not finish names exactly the days it stored.
            run.errorMessage = error.map { error in
                let stored = reports.last.map { "; stored before it: \($0.storedDays) of \($0.source)" } ?? ""
                return "\(error)\(stored)"
            }
            try context.save()
        }
    }
}
