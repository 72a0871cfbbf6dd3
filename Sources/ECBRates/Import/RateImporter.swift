import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization

/// Imports one stream of ECB rates into a store: the reader on a thread of its own, a bounded
/// queue of whole-day chunks, and workers, each with its own background context, that store a
/// chunk per transaction while the main context merges what they save.
///
/// ```swift
/// let report = try await RateImporter(store: store).importRates(from: stream, source: "eurofxref-hist.xml")
/// print(report.inserted, report.corrected, report.unchanged)
/// ```
///
/// The reader hands on chunks of `chunkDays` whole days (the one chunker); per chunk, a worker
/// fetches what is stored for its days in one fetch, inserts the new rates, replaces the
/// corrected ones and skips the unchanged, in one transaction: a day is never half-stored. With
/// ``ImportMethod/object`` (``ImportOptions``' default) the worker saves its context, and the
/// view context merges each save through ManagedStore's own path
/// (`automaticallyMergesChangesFromParent`, which ``RatesStore`` turns on); with
/// ``ImportMethod/batch`` it stores the new rates with one batch insert, which posts no didSave,
/// and ``ImportPipeline`` merges the chunk's changes into the view context itself. The two are
/// as fast as each other (`scripts/bench`, "Import … --method object").
///
/// A bad file ends the import with the reader's error after exactly the whole days that end
/// before the error's position are stored, whatever the workers and chunk size: the reader
/// never hands on the day holding the error. An ``ImportInterruption`` stops it between chunks.
public final class RateImporter: Sendable {
    /// The author the workers' saves carry in the store's persistent history, so that a
    /// reader of the history can tell imported rates from other changes.
    public static let transactionAuthor = "ecbrates import"

    /// The store the rates go into.
    public let store: RatesStore
    /// How the import runs.
    public let options: ImportOptions
    private let progress: (@Sendable (ImportProgress) -> Void)?
    private let interruption: ImportInterruption?
    /// The import run the stored rates and corrections are recorded against.
    private let run: ManagedObjectID?

    /// An importer into `store`; `progress` is called from the workers after each chunk; once
    /// `interruption` is requested, no new chunk is started.
    ///
    /// The rates it stores and the corrections it makes are recorded against the ``ImportRun``
    /// `run` (which ``ImportJob`` begins and ends); without one, each call of
    /// ``importRates(from:source:)`` records a run of its own.
    public init(
        store: RatesStore, options: ImportOptions = ImportOptions(), run: ManagedObjectID? = nil,
        interruption: ImportInterruption? = nil, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) {
        self.store = store
        self.options = options
        self.run = run
        self.interruption = interruption
        self.progress = progress
    }

    /// Reads `stream` (named `source` in messages and the report) and stores its rates.
    ///
    /// Into an empty store (a first import or a backfill), the index on (currency, date) is built
    /// once at the end rather than kept in order rate by rate, which would double the import's
    /// time (measured by `scripts/bench`).
    public func importRates(from stream: InputStream, source: String) async throws -> ImportReport {
        guard !options.dryRun, self.run == nil else {
            return try await importRates(from: stream, source: source, run: self.run)
        }
        let own = try ImportRunLog.begin(
            in: store, source: source, requestedFrom: options.from, markingInterrupted: false)
        do {
            let report = try await importRates(from: stream, source: source, run: own)
            try ImportRunLog.finish(own, in: store, outcome: .succeeded, reports: [report], error: nil)
            return report
        } catch let error as ImportInterrupted {
            try? ImportRunLog.finish(
                own, in: store, outcome: .failed, reports: [error.partial], error: error.underlying)
            throw error
        } catch {
            try? ImportRunLog.finish(own, in: store, outcome: .failed, reports: [], error: error)
            throw error
        }
    }

    private func importRates(
        from stream: InputStream, source: String, run runID: ManagedObjectID?
    ) async throws -> ImportReport {
        let run = ImportPipeline(
            store: store, options: options, source: source, run: runID, interruption: interruption, progress: progress)
        guard !options.dryRun, try isStoreEmpty() else { return try await run.run(stream) }
        // The report's time includes the index built at the end (a fifth of a first import's).
        do {
            var report = try await store.container.persistentStoreCoordinator.deferringIndexes(of: RatesModel.rate.name)
            {
                try await run.run(stream)
            }
            report.seconds = (ContinuousClock.now - run.started).seconds
            return report
        } catch let error as ImportInterrupted {
            var partial = error.partial
            partial.seconds = (ContinuousClock.now - run.started).seconds
            throw ImportInterrupted(underlying: error.underlying, partial: partial)
        }
    }

    private func isStoreEmpty() throws -> Bool {
        let context = store.container.newBackgroundContext()
        return try context.performAndWait {
            var request = FetchRequest<Eurofxrefhist>()
            request.fetchLimit = 1
            return try context.count(for: request) == 0
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
