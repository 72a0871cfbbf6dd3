import Dispatch
import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization

/// The three stacks of the "concurrent Core Data stack performance shootout", built from
/// ManagedStore's parts for the benchmark (the importer uses the first: workers beside the
/// main context, which merges their saves).
enum ContextStack: String, CaseIterable {
    /// coordinator ← main context, and coordinator ← private workers, synced by merging didSave.
    case siblings
    /// coordinator ← main context ← private workers.
    case child
    /// coordinator ← private writer ← main context ← private workers.
    case nested
}

/// One import of a file into a fresh store with one of the shootout's context stacks, while a
/// 1 ms heartbeat ticks on the main queue: the import's total time, the main queue's time spent
/// on it (merging, or saving for the stacks whose main context is a parent), and the
/// heartbeat's worst delay.
enum StackBenchmark {
    @MainActor
    static func run(
        file: String, storeURL: URL, stack: ContextStack, workers: Int?, chunkDays: Int?
    ) async throws -> [String: Double] {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storeURL.path + suffix) }
        let store = try RatesStore(url: storeURL)
        let defaults = ImportOptions()
        let run = StackRun(store: store, stack: stack, workers: workers ?? defaults.workers)
        guard let stream = InputStream(fileAtPath: file) else { throw BenchmarkError("cannot open \(file)") }

        // The heartbeat's own jitter, with nothing else to do, for comparison.
        let idle = Heartbeat()
        try await Task.sleep(for: .milliseconds(200))
        let idleDelay = idle.stop()

        let heartbeat = Heartbeat()
        let start = ContinuousClock.now
        let inserted = try await run.importAll(stream, source: file, chunkDays: chunkDays ?? defaults.chunkDays)
        await store.viewContext.perform {}
        let seconds = (ContinuousClock.now - start).seconds
        let delay = heartbeat.stop()
        let busy = run.mainQueueBusy.withLock { $0 }.seconds
        return [
            "seconds": seconds, "main_busy_seconds": busy, "main_busy_percent": busy / seconds * 100,
            "heartbeat_max_delay_ms": delay.max * 1000, "heartbeats": Double(delay.ticks),
            "idle_heartbeat_max_delay_ms": idleDelay.max * 1000, "rates": Double(inserted),
        ]
    }
}

/// The contexts of one stack, and an import through them: the reader's chunks of whole days
/// go to the workers in turn, each inserting its chunk and saving it up the stack.
///
/// `@unchecked Sendable`: `workers`, `ancestors` and `observer` are set in `init` and only read
/// after; the tallies are in `Mutex`es; the contexts are `Sendable`.
private final class StackRun: @unchecked Sendable {
    let store: RatesStore
    let workers: [ManagedObjectContext]
    /// The contexts the workers save into, nearest first.
    let ancestors: [ManagedObjectContext]
    let mainQueueBusy = Mutex(Duration.zero)
    let inserted = Mutex(0)
    let failure = Mutex<(any Error)?>(nil)
    private var observer: (any NSObjectProtocol)?

    init(store: RatesStore, stack: ContextStack, workers count: Int) {
        self.store = store
        let container = store.container
        let view = container.viewContext
        switch stack {
        case .siblings:
            // The merge is timed here, so the view context merges through this observer rather
            // than ManagedStore's relay.
            view.automaticallyMergesChangesFromParent = false
            workers = (0..<count).map { _ in container.newBackgroundContext() }
            ancestors = []
        case .child:
            workers = (0..<count).map { _ in
                let worker = ManagedObjectContext(concurrencyType: .privateQueue)
                worker.parent = view
                return worker
            }
            ancestors = [view]
        case .nested:
            let writer = container.newBackgroundContext()
            let main = ManagedObjectContext(concurrencyType: .mainQueue)
            main.parent = writer
            workers = (0..<count).map { _ in
                let worker = ManagedObjectContext(concurrencyType: .privateQueue)
                worker.parent = main
                return worker
            }
            ancestors = [main, writer]
        }
        if stack == .siblings {
            let workerSet = Set(workers.map { ObjectIdentifier($0) })
            observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveNotification, object: nil, queue: nil
            ) {
                [unowned self] note in
                guard let saver = note.object as? ManagedObjectContext, workerSet.contains(ObjectIdentifier(saver)),
                    let changes = ContextSaveChanges(note)
                else { return }
                view.perform {
                    let start = ContinuousClock.now
                    view.mergeChanges(fromContextDidSave: changes)
                    let spent = ContinuousClock.now - start
                    self.mainQueueBusy.withLock { $0 += spent }
                }
            }
        }
    }

    deinit { observer.map(NotificationCenter.default.removeObserver) }

    /// Reads `stream` on a thread of its own and stores its chunks; returns the rates inserted.
    func importAll(_ stream: InputStream, source: String, chunkDays: Int) async throws -> Int {
        let handoff = Handoff(value: stream)
        try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do {
                    try self.read(handoff.value, source: source, chunkDays: chunkDays)
                    finished.resume()
                } catch {
                    finished.resume(throwing: error)
                }
            }
            thread.start()
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return inserted.withLock { $0 }
    }

    private func read(_ stream: InputStream, source: String, chunkDays: Int) throws {
        let inFlight = DispatchSemaphore(value: workers.count * 2)
        let group = DispatchGroup()
        var next = 0
        _ = try EurofxrefReader(source: source, chunkDays: chunkDays).read(stream) { chunk in
            inFlight.wait()
            let worker = workers[next % workers.count]
            next += 1
            group.enter()
            worker.perform {
                defer {
                    inFlight.signal()
                    group.leave()
                }
                do {
                    try self.store(chunk, in: worker)
                } catch {
                    self.failure.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        group.wait()
    }

    private func store(_ chunk: RateChunk, in context: ManagedObjectContext) throws {
        for record in chunk.records {
            let rate = Eurofxrefhist(context: context)
            rate.date = record.day
            rate.currencySymbol = record.currency
            rate.exchangeRate = record.rate
        }
        try context.save()
        for ancestor in ancestors {
            try ancestor.performAndWait { () throws -> Void in
                let start = ContinuousClock.now
                try ancestor.save()
                if ancestor.concurrencyType == .mainQueue {
                    let spent = ContinuousClock.now - start
                    mainQueueBusy.withLock { $0 += spent }
                }
            }
        }
        context.reset()
        inserted.withLock { $0 += chunk.records.count }
    }
}
