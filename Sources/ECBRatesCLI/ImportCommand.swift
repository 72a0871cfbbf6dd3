import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates import`: reads ECB files into the store.
enum ImportCommand: Command {
    static let name = "import"
    static func runsOnMainThread(_ arguments: ParsedArguments) -> Bool { false }
    static let spec = CommandSpec(
        name: name,
        abstract: "Import ECB rate files (files, URLs or standard input) into the store.",
        discussion: """
        With no <source>, --source chooses one of the ECB's files: auto (the default) imports the full
        history into an empty store, and the 90-day file into one that has rates if that file reaches
        back to the store's newest day (else the full history, so that no day goes missing).
        Re-importing changes nothing; a rate the ECB has corrected is updated and reported. A URL is
        fetched only if it changed since the last import ($ECBRATES_ECB_URL replaces the ECB's folder).

        A bad file stops the import with its error (exit 65) after storing exactly the whole days that
        end before the error's position; the report names them. SIGINT or SIGTERM stops it politely:
        the chunks in flight commit whole, the report says what was stored, and it exits 130 or 143
        (a second signal kills it at once).
        """,
        arguments: [.init(name: "source", help: "A file, an http(s) URL, or - for standard input.", repeating: true, optional: true)],
        options: [source.spec, workers.spec, chunkDays.spec, method.spec, from.spec, to.spec, CommonOptions.currencies.spec, dryRun.spec, wait.spec,
                  connectTimeout.spec, idleTimeout.spec, format.spec, CommonOptions.quiet.spec, CommonOptions.store.spec],
        format: format)

    static let format = CommonOptions.format([.text, .json])
    static let source = TypedOption<ECBFile>.choice(
        "--source", value: "source", help: "daily, 90d, hist or auto, when no <source> is given (default: auto).")
    static let workers = TypedOption<Int>.integer("--workers", help: "Workers storing chunks at once (default: the number of cores).")
    static let chunkDays = TypedOption<Int>.integer(
        "--chunk-days", help: "Days stored per transaction (default: \(ImportOptions.defaultChunkDays)).")
    static let method = TypedOption<ImportMethod>.choice(
        "--method", value: "method",
        help: "object (managed objects saved per chunk) or batch (a batch insert per chunk) (default: \(ImportOptions().method.rawValue)).")
    static let from = TypedOption<CalendarDay>.day("--from", help: "Only days on or after this one (YYYY-MM-DD).")
    static let to = TypedOption<CalendarDay>.day("--to", help: "Only days on or before this one (YYYY-MM-DD).")
    static let dryRun = FlagOption("--dry-run", help: "Report what would change; store nothing.")
    static let wait = TypedOption<Double>.seconds("--wait", help: "Wait this long for another import to finish (default: 0).")
    static let connectTimeout = TypedOption<Double>.seconds(
        "--connect-timeout", positive: true,
        help: "Give up connecting to a server after this long (default: \(Int(FeedFetcher.defaultConnectTimeout))).")
    static let idleTimeout = TypedOption<Double>.seconds(
        "--idle-timeout", positive: true,
        help: "Give up on a server silent this long, then retry, 4 attempts in all (default: \(Int(FeedFetcher.defaultIdleTimeout))).")

    /// The ECB's files `--source` names.
    enum ECBFile: String, Sendable, CaseIterable {
        case daily, ninetyDays = "90d", hist, auto
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        var options = ImportOptions()
        if let workers = try arguments[Self.workers] { options.workers = workers }
        if let chunkDays = try arguments[Self.chunkDays] { options.chunkDays = chunkDays }
        if let method = try arguments[Self.method] { options.method = method }
        options.from = try arguments[Self.from]
        options.to = try arguments[Self.to]
        if let from = options.from, let to = options.to, from > to {
            throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name)
        }
        options.currencies = try arguments[CommonOptions.currencies].map(Set.init)
        options.dryRun = arguments[Self.dryRun]
        options.today = TargetCalendar.today(at: context.now)
        let wait = try arguments[Self.wait] ?? 0
        let fetcher = FeedFetcher(connectTimeout: try arguments[Self.connectTimeout] ?? FeedFetcher.defaultConnectTimeout,
                                  idleTimeout: try arguments[Self.idleTimeout] ?? FeedFetcher.defaultIdleTimeout)
        var sources = arguments.positional.map(FeedSource.init)
        if let choice = try arguments[Self.source] {
            guard sources.isEmpty else {
                throw UsageError("give either <source> arguments or '--source <source>', not both", command: spec.name)
            }
            if choice != .auto { sources = [FeedSource(choice.rawValue)] }
        }
        if sources.filter({ $0 == .standardInput }).count > 1 {
            throw UsageError("standard input (-) can be read only once", command: spec.name)
        }

        // Files are checked before the store is touched, so that a typo costs nothing.
        for case .file(let path) in sources where !FileManager.default.fileExists(atPath: path) {
            throw FeedSourceError.missing(path: path)
        }
        let interruption = ImportInterruption()
        // The shell keeps its own signals; a command line's import stops politely on them.
        let signals = context.sharedStore == nil ? SignalTrap(interruption: interruption) : nil
        defer { signals?.restore() }
        let store: RatesStore
        var heldLock: ImportLock?
        if let shared = context.sharedStore {
            store = shared
        } else {
            let storeURL = try context.storeURL(arguments)
            let exists = FileManager.default.fileExists(atPath: storeURL.path)
            let inMemory = options.dryRun && !exists
            // Creating a store is part of the import lock, so that imports started at once on a
            // missing store end with one store (a dry run takes no lock and stores nothing). A
            // store that exists is opened (and checked) first, so that a file that is not a
            // store, or a read-only one, is refused without a lock file made beside it.
            let lock = options.dryRun ? nil : ImportLock(storeURL: storeURL)
            if let lock, !exists {
                try await lock.acquire(waitingUpTo: wait, interruption: interruption)
                heldLock = lock
            }
            // Nothing reads this process's view context: the import's saves need no merging into it
            // (the shell's import, on the shared store, is merged, for the shell's queries).
            store = try RatesStore(url: inMemory ? URL(fileURLWithPath: "/dev/null") : storeURL, mergingIntoViewContext: false)
            if let lock, heldLock == nil {
                try await lock.acquire(waitingUpTo: wait, interruption: interruption)
                heldLock = lock
            }
        }
        defer { heldLock?.release() }
        var progress: ProgressLine?
        var report: (@Sendable (FeedSource, ImportProgress) -> Void)?
        if context.console.errorIsTerminal && format == .text {
            let line = ProgressLine(console: context.console)
            progress = line
            report = { source, status in line.update(source: source.description, status) }
        }
        var ecbBaseURL = FeedSource.ECBFile.ecbBaseURL
        if let mirror = context.environment["ECBRATES_ECB_URL"], !mirror.isEmpty {
            guard let url = URL(string: mirror.hasSuffix("/") ? mirror : mirror + "/"), url.scheme == "http" || url.scheme == "https" else {
                throw UsageError("$ECBRATES_ECB_URL (\(mirror)) is not an http(s) URL", command: spec.name)
            }
            ecbBaseURL = url
        }
        let job = ImportJob(store: store, sources: sources, options: options, lockWait: wait, heldLock: heldLock,
                            fetcher: fetcher, ecbBaseURL: ecbBaseURL, interruption: interruption, progress: report)
        do {
            let reports = try await job.run()
            progress?.finish()
            render(reports, format: format, console: context.console)
            return ExitCode.success
        } catch let error as ImportJobError {
            progress?.finish()
            render(error.reports, format: format, console: context.console, stopped: error.partial, error: error.underlying)
            throw error
        }
    }

    /// Prints the reports; `stopped` is what the source that failed (or was interrupted) stored
    /// before `error`.
    static func render(_ reports: [ImportReport], format: OutputFormat, console: Console, stopped: ImportReport? = nil, error: (any Error)? = nil) {
        if format == .json {
            var entries = reports.map { json($0) }
            if let stopped {
                var entry = json(stopped)
                if case .object(var fields) = entry {
                    fields.append(("stopped", .bool(true)))
                    fields.append(("error", .string(error.map(ErrorText.describe) ?? "")))
                    entry = .object(fields)
                }
                entries.append(entry)
            }
            console.out(JSONText.render(["imports": .array(entries)]) + "\n")
            return
        }
        for report in reports { printText(report, console: console) }
        if let stopped {
            let why = (error as? ImportStopped).map { "interrupted by \($0.signalName)" } ?? "stopped by the error below"
            let stored = stopped.dryRun ? "; a real import would have stored \(stopped.storedDays) (dry run: nothing stored)"
                                        : " after storing \(stopped.storedDays)"
            console.out("\(stopped.source): \(why)\(stored): "
                        + "\(stopped.inserted) new, \(stopped.corrected) corrected, \(stopped.unchanged) unchanged\n")
            printCorrections(stopped, console: console)
        }
    }

    private static func printText(_ report: ImportReport, console: Console) {
        if let note = report.note { console.out("note: \(note)\n") }
        console.out(text(report) + "\n")
        printCorrections(report, console: console)
    }

    private static func printCorrections(_ report: ImportReport, console: Console) {
        for correction in report.corrections.sorted(by: { ($0.day, $0.currency) < ($1.day, $1.currency) }) {
            console.out("  corrected \(correction.currency) on \(correction.day): \(correction.old) → \(correction.new)\n")
        }
    }

    /// `eurofxref-hist.xml: 7104 days 1999-01-04..2026-09-30, 221064 rates: 221064 new, 0 corrected, 0 unchanged in 0.48 s`
    static func text(_ report: ImportReport) -> String {
        if report.notModified { return "\(report.source): not modified since the last import; nothing to do" }
        let span = report.firstDay.map { first in report.lastDay.map { $0 == first ? " \(first)" : " \(first)..\($0)" } ?? " \(first)" } ?? ""
        var line = "\(report.source): \(report.days) day\(report.days == 1 ? "" : "s")\(span), \(report.rates) rate\(report.rates == 1 ? "" : "s"): "
        line += "\(report.inserted) new, \(report.corrected) corrected, \(report.unchanged) unchanged in \(String(format: "%.2f", report.seconds)) s"
        if report.dryRun { line += " (dry run: nothing stored)" } else if !report.changesStore { line += "; nothing changed" }
        return line
    }

    static func json(_ report: ImportReport) -> JSONText {
        .object([
            ("source", .string(report.source)),
            ("days", .number(Double(report.days))),
            ("firstDay", report.firstDay.map { .string($0.description) } ?? .null),
            ("lastDay", report.lastDay.map { .string($0.description) } ?? .null),
            ("rates", .number(Double(report.rates))),
            ("new", .number(Double(report.inserted))),
            ("corrected", .number(Double(report.corrected))),
            ("unchanged", .number(Double(report.unchanged))),
            ("corrections", .array(report.corrections.sorted { ($0.day, $0.currency) < ($1.day, $1.currency) }.map {
                .object([("day", .string($0.day.description)), ("currency", .string($0.currency)),
                         ("old", .decimal($0.old)), ("new", .decimal($0.new))])
            })),
            ("notModified", .bool(report.notModified)),
            ("note", report.note.map { .string($0) } ?? .null),
            ("dryRun", .bool(report.dryRun)),
            ("seconds", .number((report.seconds * 1000).rounded() / 1000)),
        ])
    }
}

/// A line on standard error that shows an import's progress, redrawn at most ten times a second.
///
/// `@unchecked Sendable`: `lastDraw` is touched only under `lock`.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    init(console: Console) { self.console = console }

    func update(source: String, _ progress: ImportProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        drawn = true
        let rate = progress.seconds > 0 ? Int(Double(progress.rates) / progress.seconds) : 0
        let name = URL(fileURLWithPath: source).lastPathComponent
        console.err("\r\u{1B}[2K\(name): \(progress.days) days, \(progress.rates) rates, \(rate) rates/s")
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { console.err("\r\u{1B}[2K") }
    }
}
