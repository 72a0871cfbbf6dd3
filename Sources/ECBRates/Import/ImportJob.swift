import EurofxrefFeed
import Foundation
import ManagedStore

/// One `ecbrates import`: takes the store's import lock, records the run, reads each source in
/// turn (fetching URLs with a conditional GET), and reports what each changed.
///
/// ```swift
/// let job = ImportJob(store: store, sources: [FeedSource("Fixtures/eurofxref-hist.xml")])
/// for report in try await job.run() { print(report.inserted) }
/// ```
public struct ImportJob: Sendable {
    /// Which file `auto` means: the full history into an empty store, else the 90-day file.
    public static func automaticSource(for store: RatesStore) throws -> FeedSource {
        let context = store.container.newBackgroundContext()
        let count = try context.performAndWait { try context.count(for: FetchRequest<Eurofxrefhist>()) }
        return .ecb(count == 0 ? .history : .ninetyDays)
    }

    /// The store the rates go into.
    public let store: RatesStore
    /// The sources; none means ``automaticSource(for:)``.
    public let sources: [FeedSource]
    /// How each source is imported.
    public let options: ImportOptions
    /// How long to wait for another import to finish, in seconds.
    public let lockWait: Double
    /// Fetches the URL sources.
    public let fetcher: FeedFetcher
    /// Called with each source's progress, from the import's threads.
    public let progress: (@Sendable (FeedSource, ImportProgress) -> Void)?

    /// A job importing `sources` into `store`.
    public init(store: RatesStore, sources: [FeedSource], options: ImportOptions = ImportOptions(), lockWait: Double = 0,
                fetcher: FeedFetcher = FeedFetcher(), progress: (@Sendable (FeedSource, ImportProgress) -> Void)? = nil) {
        self.store = store
        self.sources = sources
        self.options = options
        self.lockWait = lockWait
        self.fetcher = fetcher
        self.progress = progress
    }

    /// Runs the job; the reports of the sources read before an error are in
    /// ``ImportJobError/reports`` of the error thrown.
    public func run() async throws -> [ImportReport] {
        let lock = ImportLock(storeURL: store.url)
        if !options.dryRun { try await lock.acquire(waitingUpTo: lockWait) }
        defer { lock.release() }
        let sources = try self.sources.isEmpty ? [Self.automaticSource(for: store)] : self.sources
        let runID = options.dryRun ? nil : try ImportRunLog.begin(in: store, source: sources.map(\.description).joined(separator: " "))

        var reports: [ImportReport] = []
        do {
            for source in sources {
                reports.append(try await importSource(source))
            }
        } catch {
            let partial = (error as? ImportInterrupted)?.partial
            let underlying = (error as? ImportInterrupted)?.underlying ?? error
            if let runID {
                try? ImportRunLog.finish(runID, in: store, outcome: .failed, reports: reports + (partial.map { [$0] } ?? []), error: underlying)
            }
            throw ImportJobError(underlying: underlying, reports: reports, partial: partial)
        }
        if let runID {
            let outcome: ImportRun.Outcome = reports.allSatisfy(\.notModified) ? .notModified : .succeeded
            try ImportRunLog.finish(runID, in: store, outcome: outcome, reports: reports, error: nil)
        }
        return reports
    }

    private func importSource(_ source: FeedSource) async throws -> ImportReport {
        var perSource: (@Sendable (ImportProgress) -> Void)?
        if let progress {
            perSource = { progress(source, $0) }
        }
        let importer = RateImporter(store: store, options: options, progress: perSource)
        guard let url = source.remoteURL else {
            return try await importer.importRates(from: source.openLocal(), source: source.description)
        }
        let validators = try FeedStateLog.validators(for: url, in: store)
        switch try await fetcher.fetch(url, validators: validators) {
        case .notModified:
            var report = ImportReport(source: source.description)
            report.notModified = true
            report.dryRun = options.dryRun
            if !options.dryRun { try FeedStateLog.record(validators ?? HTTPValidators(), for: url, in: store) }
            return report
        case .fetched(let file):
            defer { file.remove() }
            guard let stream = InputStream(url: file.file) else { throw FeedSourceError.unreadable(path: file.file.path, reason: "the download vanished") }
            let report = try await importer.importRates(from: stream, source: source.description)
            if !options.dryRun && !file.validators.isEmpty { try FeedStateLog.record(file.validators, for: url, in: store) }
            return report
        }
    }
}

/// An import that failed: the error, and the reports of the sources read before it.
public struct ImportJobError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public let underlying: any Error
    /// What the sources before the failing one stored.
    public let reports: [ImportReport]
    /// What the failing source stored before the error (whole days), when it got that far.
    public let partial: ImportReport?

    public var description: String { "\(underlying)" }
    public var errorDescription: String? { description }
}
