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
///
/// With no sources, the job picks the ECB's file itself, so that the store never gets a hole:
/// the full history into an empty store, and into one whose history is incomplete (it begins
/// after where it should: see ``HistoryCoverage``); else the 90-day file, but only if it reaches
/// back to the store's newest day with no business day missing between, and the full history
/// if not.
public struct ImportJob: Sendable {
    /// The store the rates go into.
    public let store: RatesStore
    /// The sources; none means the ECB's file the store needs (see the type's discussion).
    public let sources: [FeedSource]
    /// How each source is imported.
    public let options: ImportOptions
    /// How long to wait for another import to finish, in seconds.
    public let lockWait: Double
    /// The import lock, when the caller took it already (before opening the store, so that
    /// creating a store is part of the lock); nil: the job takes it.
    public let heldLock: ImportLock?
    /// Fetches the URL sources.
    public let fetcher: FeedFetcher
    /// Where the ECB's files are fetched from (the ECB's own folder by default; a mirror).
    public let ecbBaseURL: URL
    /// Asks the job to stop between chunks (SIGINT, SIGTERM).
    public let interruption: ImportInterruption?
    /// Called with each source's progress, from the import's threads.
    public let progress: (@Sendable (FeedSource, ImportProgress) -> Void)?

    /// A job importing `sources` into `store`.
    public init(
        store: RatesStore, sources: [FeedSource], options: ImportOptions = ImportOptions(), lockWait: Double = 0,
        heldLock: ImportLock? = nil, fetcher: FeedFetcher = FeedFetcher(),
        ecbBaseURL: URL = FeedSource.ECBFile.ecbBaseURL, interruption: ImportInterruption? = nil,
        progress: (@Sendable (FeedSource, ImportProgress) -> Void)? = nil
    ) {
        self.store = store
        self.sources = sources
        self.options = options
        self.lockWait = lockWait
        self.heldLock = heldLock
        self.fetcher = fetcher
        self.ecbBaseURL = ecbBaseURL
        self.interruption = interruption
        self.progress = progress
    }

    /// Runs the job; the reports of the sources read before an error are in
    /// ``ImportJobError/reports`` of the error thrown.
    public func run() async throws -> [ImportReport] {
        let lock = heldLock ?? ImportLock(storeURL: store.url)
        if !options.dryRun && heldLock == nil {
            try await lock.acquire(waitingUpTo: lockWait, interruption: interruption)
        }
        defer { if heldLock == nil { lock.release() } }
        let automatic = sources.isEmpty
        // An incomplete history is filled from where it should begin (an asked --from stays).
        let coverage = automatic ? try Self.historyCoverage(in: store) : nil
        let filling = coverage.map { !$0.isComplete } ?? false
        var options = self.options
        if filling, let coverage, coverage.isAsked, options.from == nil { options.from = coverage.shouldBegin }
        let sources =
            automatic
            ? [try Self.newestDay(in: store) == nil || filling ? FeedSource.ecb(.history) : .ecb(.ninetyDays)]
            : self.sources
        let runID =
            options.dryRun
            ? nil
            : try ImportRunLog.begin(
                in: store, source: sources.map(name).joined(separator: " "), requestedFrom: options.from)

        var reports: [ImportReport] = []
        var current: FeedSource?
        do {
            for source in sources {
                current = source
                if let stop = interruption?.stop { throw stop }
                var report = try await importSource(source, options: options, automatic: automatic, run: runID)
                if filling, let coverage, let begins = coverage.begins, report.note == nil {
                    let count = coverage.missingBusinessDays
                    report.note =
                        "the store's history was incomplete: it began on \(begins), but should begin on \(coverage.shouldBeginText), "
                        + "\(count) business day\(count == 1 ? "" : "s") earlier: the full history was imported to fill it"
                }
                reports.append(report)
            }
        } catch {
            var partial = (error as? ImportInterrupted)?.partial
            var underlying = (error as? ImportInterrupted)?.underlying ?? error
            if underlying is FetchStopped, let stop = interruption?.stop { underlying = stop }
            // Stopped before the source's first chunk (while waiting, fetching): it stored no day.
            if partial == nil, underlying is ImportStopped, let current {
                partial = ImportReport(source: name(current))
                partial?.dryRun = options.dryRun
            }
            let outcome: ImportRun.Outcome = underlying is ImportStopped ? .interrupted : .failed
            if let runID {
                try? ImportRunLog.finish(
                    runID, in: store, outcome: outcome, reports: reports + (partial.map { [$0] } ?? []),
                    error: underlying)
            }
            throw ImportJobError(underlying: underlying, reports: reports, partial: partial)
        }
        if let runID {
            let outcome: ImportRun.Outcome = reports.allSatisfy(\.notModified) ? .notModified : .succeeded
            try ImportRunLog.finish(runID, in: store, outcome: outcome, reports: reports, error: nil)
        }
        return reports
    }

    /// The name a source goes by in reports and the import log: for the ECB's files, the URL
    /// actually fetched (a mirror's, with ``ecbBaseURL``).
    func name(_ source: FeedSource) -> String {
        if case .ecb(let file) = source { return file.url(base: ecbBaseURL).absoluteString }
        return source.description
    }

    /// The newest day the store holds rates for.
    static func newestDay(in store: RatesStore) throws -> CalendarDay? {
        let context = store.container.newBackgroundContext()
        return try context.performAndWait { () throws -> CalendarDay? in
            var request = FetchRequest<Eurofxrefhist>(sortBy: [SortDescriptor(\.date, order: .reverse)])
            request.fetchLimit = 1
            return try context.fetch(request).first?.date
        }
    }

    /// How much of its history the store holds at its start.
    static func historyCoverage(in store: RatesStore) throws -> HistoryCoverage {
        let context = store.container.newBackgroundContext()
        return try context.performAndWait { try RateQueries(context: context).historyCoverage() }
    }

    /// Whether a file whose oldest day is `oldest` joins the store's days without a hole: no
    /// business day after the store's newest day comes before it.
    static func reachesBack(_ oldest: CalendarDay?, to newest: CalendarDay?) -> Bool {
        guard let newest, let oldest else { return true }
        return TargetCalendar.businessDays(after: newest, through: oldest.adding(days: -1)).isEmpty
    }

    private func importSource(
        _ source: FeedSource, options: ImportOptions, automatic: Bool, run runID: ManagedObjectID?
    ) async throws -> ImportReport {
        var perSource: (@Sendable (ImportProgress) -> Void)?
        if let progress {
            perSource = { progress(source, $0) }
        }
        let importer = RateImporter(
            store: store, options: options, run: runID, interruption: interruption, progress: perSource)
        let remote: URL
        switch source {
        case .ecb(let file): remote = file.url(base: ecbBaseURL)
        case .url(let url): remote = url
        case .file, .standardInput:
            return try await importer.importRates(from: source.openLocal(), source: source.description)
        }
        let name = remote.absoluteString
        let validators = try FeedStateLog.validators(for: remote, in: store)
        let interruption = self.interruption
        switch try await fetcher.fetch(
            remote, validators: validators, shouldStop: { interruption?.isRequested == true })
        {
        case .notModified:
            var report = ImportReport(source: name)
            report.notModified = true
            report.dryRun = options.dryRun
            if !options.dryRun { try FeedStateLog.record(validators ?? HTTPValidators(), for: remote, in: store) }
            return report
        case .fetched(let file):
            defer { file.remove() }
            if automatic, source == .ecb(.ninetyDays) {
                // The 90-day file is used only when it joins the store's days without a hole.
                let newest = try Self.newestDay(in: store)
                let oldest = try EurofxrefReader(
                    source: name, dayRefusal: TargetCalendar.readerCheck(today: options.today)
                ).validate(try open(file)).firstDay
                if !Self.reachesBack(oldest, to: newest) {
                    var report = try await importSource(.ecb(.history), options: options, automatic: false, run: runID)
                    report.note =
                        "the 90-day file begins on \(oldest.map { "\($0)" } ?? "?"), and the store's newest day is \(newest.map { "\($0)" } ?? "?"): the full history was imported instead, so that no day is missing"
                    return report
                }
            }
            let report = try await importer.importRates(from: try open(file), source: name)
            if !options.dryRun && !file.validators.isEmpty {
                try FeedStateLog.record(file.validators, for: remote, in: store)
            }
            return report
        }
    }

    private func open(_ file: FetchedFile) throws -> InputStream {
        guard let stream = InputStream(url: file.file) else {
            throw FeedSourceError.unreadable(path: file.file.path, reason: "the download vanished")
        }
        return stream
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
