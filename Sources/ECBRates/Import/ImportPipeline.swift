import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization

/// One import of one stream: its contexts, its queue and its tallies.
///
/// `@unchecked Sendable`: the mutable state is in `Mutex`es; `workers` is written once, before
/// any worker starts; the contexts are `Sendable`; the queue is.
final class ImportPipeline: @unchecked Sendable {
    let store: RatesStore
    let options: ImportOptions
    let source: String
    let runID: ManagedObjectID?
    let interruption: ImportInterruption?
    let progress: (@Sendable (ImportProgress) -> Void)?
    let queue: BoundedQueue<WorkItem>
    let started = ContinuousClock.now

    struct Tally {
        var report: ImportReport
        var failure: (any Error)?
    }
    let tally: Mutex<Tally>
    /// Whether an interruption left chunks unstored (dropped from the queue, or never read).
    let cutShort = Mutex(false)

    var workers: [ManagedObjectContext] = []

    init(
        store: RatesStore, options: ImportOptions, source: String, run: ManagedObjectID?,
        interruption: ImportInterruption?,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) {
        self.store = store
        self.options = options
        self.source = source
        self.runID = run
        self.interruption = interruption
        self.progress = progress
        self.queue = BoundedQueue(capacity: options.workers * 2)
        var report = ImportReport(source: source)
        report.dryRun = options.dryRun
        self.tally = Mutex(Tally(report: report))
    }

    // MARK: Running

    func run(_ stream: InputStream) async throws -> ImportReport {
        buildWorkers()
        // Weakly: the interruption outlives the import (the command line's signal handlers
        // hold it), and must not keep the store open past it.
        interruption?.observe { [weak self] in
            guard let self else { return }
            if queue.cancel() > 0 { cutShort.withLock { $0 = true } }
        }
        let workersDone = startWorkers()
        let readError = await readOnThread(stream)
        await workersDone.value
        // The merges ManagedStore queued on the main queue have run once this block does.
        await store.viewContext.perform {}

        var report = tally.withLock { $0.report }
        report.seconds = (ContinuousClock.now - started).seconds
        let stopped = cutShort.withLock { $0 } ? interruption?.stop : nil
        if let failure = tally.withLock({ $0.failure }) ?? readError ?? stopped {
            throw ImportInterrupted(underlying: failure, partial: report)
        }
        return report
    }

    /// Makes the workers' contexts: background contexts on the coordinator, whose saves
    /// ManagedStore merges into the view context; for a dry run, children of a context on the
    /// store, reset after each chunk and never saved.
    func buildWorkers() {
        let container = store.container
        if options.dryRun {
            let root = container.newBackgroundContext()
            workers = (0..<options.workers).map { _ in
                let worker = ManagedObjectContext(concurrencyType: .privateQueue)
                worker.parent = root
                return worker
            }
        } else {
            workers = (0..<options.workers).map { _ in container.newBackgroundContext() }
        }
        for (index, worker) in workers.enumerated() {
            worker.name = "import worker \(index + 1)"
            worker.transactionAuthor = RateImporter.transactionAuthor
            worker.mergePolicy = .mergeByPropertyObjectTrump
        }
    }

    /// Starts the workers; the task ends when all of them have.
    func startWorkers() -> Task<Void, Never> {
        let workers = self.workers
        return Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in workers {
                    group.addTask {
                        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                            worker.perform {
                                self.work(in: worker)
                                done.resume()
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs the reader on a thread of its own, feeding the queue; returns its error, if any.
    func readOnThread(_ stream: InputStream) async -> (any Error)? {
        let handoff = Handoff(value: stream)
        return await withCheckedContinuation { (finished: CheckedContinuation<(any Error)?, Never>) in
            let thread = Thread {
                let error = self.read(handoff.value)
                finished.resume(returning: error)
            }
            thread.name = "ecbrates reader"
            thread.start()
        }
    }

    /// Thrown from the reader's handler to end the read: a worker failed, or the import was
    /// interrupted; the error to report is theirs.
    private struct Stopped: Error {}

    func read(_ stream: InputStream) -> (any Error)? {
        let reader = EurofxrefReader(
            source: source, chunkDays: options.chunkDays, dayRefusal: TargetCalendar.readerCheck(today: options.today))
        let filtering = options.from != nil || options.to != nil || options.currencies != nil
        do {
            _ = try reader.read(stream) { chunk in
                if interruption?.isRequested == true { throw Stopped() }
                var item = WorkItem(records: chunk.records, days: chunk.days)
                if filtering {
                    item.records.removeAll { !options.admits($0) }
                    var kept = Set<CalendarDay>()
                    for record in item.records { kept.insert(record.day) }
                    item.days.removeAll { !kept.contains($0) }
                    if item.days.isEmpty { return }
                }
                guard queue.put(item) else { throw Stopped() }
            }
            queue.close()
            return nil
        } catch is Stopped {
            if interruption?.isRequested == true { cutShort.withLock { $0 = true } }
            queue.close()
            return nil
        } catch {
            // The reader handed on the whole days before the error; the workers store them.
            queue.close()
            return error
        }
    }

    // MARK: Storing

    /// A worker's loop, on its context's queue.
    func work(in context: ManagedObjectContext) {
        // Once interrupted, the chunk in flight commits (or rolls back) whole; none is started.
        while interruption?.isRequested != true, let item = queue.take() {
            do {
                try store(item, in: context)
            } catch {
                tally.withLock { if $0.failure == nil { $0.failure = error } }
                queue.cancel()
                return
            }
        }
    }

    private struct RateKey: Hashable {
        let day: Int
        let currency: String
    }

    func store(_ item: WorkItem, in context: ManagedObjectContext) throws {
        // What is stored for these days, as values: a re-import, which changes nothing, makes no
        // managed objects at all (a re-import of the history: 0.31 -> 0.22 s, `scripts/bench`).
        let dates = item.days
        let stored = try context.fetchValues(
            FetchRequest<Eurofxrefhist>(predicate: #Predicate { dates.contains($0.date) }),
            \.date, \.currencySymbol, \.exchangeRate)
        var index: [RateKey: Decimal] = [:]
        index.reserveCapacity(stored.count)
        for (date, currency, rate) in stored {
            index[RateKey(day: date.daysSince1970, currency: currency)] = rate
        }
        var unchanged = 0
        var fresh: [RateRecord] = []
        var changed: [(record: RateRecord, old: Decimal)] = []
        for record in item.recordsByDay() {
            if let rate = index[RateKey(day: record.day.daysSince1970, currency: record.currency)] {
                if rate == record.rate {
                    unchanged += 1
                } else {
                    changed.append((record, rate))
                }
            } else {
                fresh.append(record)
            }
        }
        let inserted = fresh.count
        let corrections: [Correction]
        if options.method == .batch && changed.isEmpty && !options.dryRun {
            // The chunk's new rates in one batch insert: one transaction, no objects. (A chunk
            // that corrects stored rates goes through objects below, so that the corrections
            // and their records commit in the same transaction as the chunk's new rates.)
            if !fresh.isEmpty { try insertInBatch(fresh, in: context) }
            corrections = []
        } else {
            // The run, as a fault: the rates point at it without loading it.
            let run = options.dryRun ? nil : runID.map { context.object(with: $0) as! ImportRun }
            for record in fresh {
                let rate = Eurofxrefhist(context: context)
                rate.date = record.day
                rate.currencySymbol = record.currency
                rate.exchangeRate = record.rate
                if let run { rate.importRun = run }
            }
            // Corrections are rare: only their days are fetched as objects, to be updated.
            corrections = try correct(changed, run: run, in: context)
            if !options.dryRun {
                try context.save()
            }
            context.reset()
        }
        let corrected = corrections.count

        let progressNow: ImportProgress = tally.withLock { tally in
            tally.report.days += item.days.count
            tally.report.rates += item.records.count
            tally.report.inserted += inserted
            tally.report.corrected += corrected
            tally.report.unchanged += unchanged
            tally.report.corrections += corrections
            for day in item.days {
                if tally.report.firstDay.map({ day < $0 }) ?? true { tally.report.firstDay = day }
                if tally.report.lastDay.map({ day > $0 }) ?? true { tally.report.lastDay = day }
            }
            return ImportProgress(
                days: tally.report.days, rates: tally.report.rates, seconds: (ContinuousClock.now - started).seconds)
        }
        progress?(progressNow)
    }

    /// Stores new rates with one batch insert, and hands the new rows to every context that merges
    /// automatically (the view context when the store merges into it, and any other) through the
    /// coordinator's relay, as the object path's save is.
    private func insertInBatch(_ records: [RateRecord], in context: ManagedObjectContext) throws {
        let run: AttributeValue = runID.map { .object($0) } ?? .null
        var next = 0
        var request = BatchInsertRequest<Eurofxrefhist>(dictionaryHandler: { row in
            guard next < records.count else { return true }
            let record = records[next]
            next += 1
            row = [
                "date": record.day.attributeValue, "currencySymbol": .string(record.currency),
                "exchangeRate": .decimal(record.rate), "importRun": run,
            ]
            return false
        })
        let coordinator = store.container.persistentStoreCoordinator
        let merging = coordinator.hasAutomaticallyMergingContexts
        request.resultType = merging ? .objectIDs : .statusOnly
        let result = try context.execute(request)
        if merging, let ids = result.objectIDs {
            let changes = ContextSaveChanges(insertedObjectIDs: Set(ids), updatedObjectIDs: [], deletedObjectIDs: [])
            coordinator.relay(changes, from: context)
        }
    }

    /// Sets the corrected rates on the stored objects and records each correction against the
    /// run; returns the corrections made.
    private func correct(
        _ changed: [(record: RateRecord, old: Decimal)], run: ImportRun?, in context: ManagedObjectContext
    ) throws -> [Correction] {
        guard !changed.isEmpty else { return [] }
        let days = Array(Set(changed.map(\.record.day)))
        var objects: [RateKey: Eurofxrefhist] = [:]
        for rate in try context.fetch(FetchRequest<Eurofxrefhist>(predicate: #Predicate { days.contains($0.date) })) {
            objects[RateKey(day: rate.date.daysSince1970, currency: rate.currencySymbol)] = rate
        }
        var corrections: [Correction] = []
        for (record, old) in changed {
            guard let rate = objects[RateKey(day: record.day.daysSince1970, currency: record.currency)] else {
                continue
            }
            rate.exchangeRate = record.rate
            if let run {
                let correction = RateCorrection(context: context)
                correction.oldRate = old
                correction.newRate = record.rate
                correction.rate = rate
                correction.run = run
            }
            corrections.append(Correction(day: record.day, currency: record.currency, old: old, new: record.rate))
        }
        return corrections
    }

}
