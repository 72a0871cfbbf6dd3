import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates import`: reads ECB files into the store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "import",
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
            """)

    /// The ECB's files `--source` names.
    enum ECBFile: String, Sendable, CaseIterable {
        case daily, ninetyDays = "90d", hist, auto
    }

    @RepeatingArgument(
        .word(
            "source",
            help: "A file, an http(s) URL, - for standard input, or one of the ECB's files: daily, 90d or hist.",
            completion: .file), optional: true)
    var sourceArguments: [String]
    @Option(
        .choice(
            "--source", value: "source", help: "daily, 90d, hist or auto, when no <source> is given (default: auto)."))
    var source: ECBFile?
    @Option(.integer("--workers", help: "Workers storing chunks at once (default: the number of cores).")) var workers:
        Int?
    @Option(.integer("--chunk-days", help: "Days stored per transaction (default: \(ImportOptions.defaultChunkDays))."))
    var chunkDays: Int?
    @Option(
        .choice(
            "--method", value: "method",
            help:
                "object (managed objects saved per chunk) or batch (a batch insert per chunk) (default: \(ImportOptions().method.rawValue))."
        ))
    var method: ImportMethod?
    @Option(.day("--from", help: "Only days on or after this one (YYYY-MM-DD).")) var from: CalendarDay?
    @Option(.day("--to", help: "Only days on or before this one (YYYY-MM-DD).")) var to: CalendarDay?
    @Option(CommonOptions.currencies) var currencies: [CurrencyCode]?
    @Flag(FlagSpec("--dry-run", help: "Report what would change; store nothing.")) var dryRun: Bool
    @Option(.seconds("--wait", help: "Wait this long for another import to finish (default: 0).")) var wait: Double?
    @Option(
        .seconds(
            "--connect-timeout", positive: true,
            help: "Give up connecting to a server after this long (default: \(Int(FeedFetcher.defaultConnectTimeout)))."
        ))
    var connectTimeout: Double?
    @Option(
        .seconds(
            "--idle-timeout", positive: true,
            help:
                "Give up on a server silent this long, then retry, 4 attempts in all (default: \(Int(FeedFetcher.defaultIdleTimeout)))."
        ))
    var idleTimeout: Double?
    @Flag(
        FlagSpec(
            "--expect-due",
            help:
                "Exit 75 (try again later) when the store still lacks the newest business day whose rates are due (the ECB publishes around 16:00 Frankfurt time): for a timer or cron job to retry when the ECB is late."
        ))
    var expectDue: Bool
    @Option(CommonOptions.format([.text, .json]), default: .text) var format: OutputFormat
    @Flag(CommonOptions.quiet) var quiet: Bool
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }
    var stopsPolitelyOnSignals: Bool { true }
    var runsOnMainThread: Bool { false }

    func run(_ context: CommandContext) async throws -> Int32 {
        let name = Self.configuration.name
        var options = ImportOptions()
        if let workers { options.workers = workers }
        if let chunkDays { options.chunkDays = chunkDays }
        if let method { options.method = method }
        options.from = from
        options.to = to
        if let from, let to, from > to {
            throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: name)
        }
        options.currencies = currencies.map { Set($0.map(\.text)) }
        options.dryRun = dryRun
        if dryRun && expectDue {
            throw UsageError("--expect-due checks what the import stored; a --dry-run stores nothing", command: name)
        }
        options.today = TargetCalendar.today(at: context.now)
        let wait = wait ?? 0
        let fetcher = FeedFetcher(
            connectTimeout: connectTimeout ?? FeedFetcher.defaultConnectTimeout,
            idleTimeout: idleTimeout ?? FeedFetcher.defaultIdleTimeout)
        var sources = sourceArguments.map(FeedSource.init)
        if let choice = source {
            guard sources.isEmpty else {
                throw UsageError("give either <source> arguments or '--source <source>', not both", command: name)
            }
            if choice != .auto { sources = [FeedSource(choice.rawValue)] }
        }
        if sources.filter({ $0 == .standardInput }).count > 1 {
            throw UsageError("standard input (-) can be read only once", command: name)
        }

        // Files are checked before the store is touched, so that a typo costs nothing.
        for case .file(let path) in sources where !FileManager.default.fileExists(atPath: path) {
            throw FeedSourceError.missing(path: path)
        }
        let interruption = ImportInterruption()
        // The shell keeps its own signals; a command line's import stops politely on them.
        let signals = context.sharedStore == nil ? SignalTrap.attach(interruption) : nil
        defer { signals?.release() }
        let store: RatesStore
        var heldLock: ImportLock?
        if let shared = context.sharedStore {
            store = shared
        } else {
            let storeLocation = context.storeLocation(self.store)
            let storeURL = storeLocation.url
            // The system-wide store is found for queries when the user has none; an import
            // into it by a user who may not write it is told how to have a store of their own.
            if storeLocation.origin == .system, !options.dryRun,
                access(storeURL.path, W_OK) != 0 || access(storeURL.deletingLastPathComponent().path, W_OK) != 0
            {
                throw SystemStoreError(storeLocation)
            }
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
            let location = inMemory ? URL(fileURLWithPath: "/dev/null") : storeURL
            do {
                store = try RatesStore(url: location, mergingIntoViewContext: false)
            } catch  where FailureKind(error) == .tryAgainLater && lock != nil && heldLock == nil {
                // Another import is writing the store (just made it, or migrating it): take the
                // lock first, as long as --wait allows, then open it again.
                try await lock!.acquire(waitingUpTo: wait, interruption: interruption)
                heldLock = lock
                store = try RatesStore(url: location, mergingIntoViewContext: false)
            }
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
        let ecbBaseURL = try Self.ecbBaseURL(context.environment, command: name)
        let job = ImportJob(
            store: store, sources: sources, options: options, lockWait: wait, heldLock: heldLock,
            fetcher: fetcher, ecbBaseURL: ecbBaseURL, interruption: interruption, progress: report)
        do {
            let reports = try await job.run()
            progress?.finish()
            Self.render(reports, format: format, console: context.console)
            // A signal that came once everything was stored stopped nothing: said so.
            if let signal = interruption.signal, signal != 0 {
                let stop = ImportStopped(signal: signal)
                context.console.err(
                    "note: \(stop.signalName) came after the import had stored and recorded everything; nothing was stopped\n"
                )
            }
            if expectDue, let late = try await Self.lateDays(in: store, now: context.now) {
                context.console.err("\(context.console.errorLabel()) \(late); try again later\n")
                return ExitCode.tryAgainLater
            }
            return ExitCode.success
        } catch let error as ImportJobError {
            progress?.finish()
            Self.render(
                error.reports, format: format, console: context.console, stopped: error.partial, error: error.underlying
            )
            throw error
        }
    }

    /// Prints the reports; `stopped` is what the source that failed (or was interrupted) stored
    /// before `error`.
    /// Where the ECB's files are fetched from: its own folder, or `$ECBRATES_ECB_URL` (a mirror).
    static func ecbBaseURL(_ environment: [String: String], command name: String) throws -> URL {
        guard let mirror = environment["ECBRATES_ECB_URL"], !mirror.isEmpty else {
            return FeedSource.ECBFile.ecbBaseURL
        }
        guard let url = URL(string: mirror.hasSuffix("/") ? mirror : mirror + "/"),
            url.scheme == "http" || url.scheme == "https"
        else {
            throw UsageError("$ECBRATES_ECB_URL (\(mirror)) is not an http(s) URL", command: name)
        }
        return url
    }

    static func render(
        _ reports: [ImportReport], format: OutputFormat, console: Console, stopped: ImportReport? = nil,
        error: (any Error)? = nil
    ) {
        let answer = ImportAnswer(
            reports: reports, stopped: stopped, error: stopped == nil ? nil : error.map(FailureText.describe) ?? "",
            interruptedBy: (error as? ImportStopped)?.signalName)
        // --quiet silences a success's report; what a stopped import stored is said even then
        // (on standard error, for a cron job's log).
        if console.isQuiet && stopped != nil {
            console.err(answer.rendered(as: format))
        } else {
            console.out(answer.rendered(as: format))
        }
    }
}

extension ImportCommand {
    /// What `--expect-due` says when the store lacks business days whose rates are due at
    /// `now`, or nil when it has them all.
    static func lateDays(in store: RatesStore, now: Date) async throws -> String? {
        let (newest, missing) = try await store.read(now: now) { try $0.missingBusinessDays() }
        guard let last = missing.last, let first = missing.first else { return nil }
        let due =
            missing.count == 1
            ? "the rates of \(last) are due"
            : "the rates of \(missing.count) business days are due, \(first) to \(last)"
        return
            "\(due) (the ECB publishes around 16:00 Frankfurt time), but the store's newest day is \(newest): the ECB's file does not have them yet (--expect-due)"
    }
}
