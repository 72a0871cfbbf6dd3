import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates import`: reads ECB files into the store.
enum ImportCommand: Command {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import ECB rate files (files, URLs or standard input) into the store.",
        discussion: """
        With no <source>, --source chooses one of the ECB's files: auto (the default) imports the full
        history into an empty store, and the 90-day file into one that has rates. Re-importing changes
        nothing; a rate the ECB has corrected is updated and reported. A URL is fetched only if it
        changed since the last import.
        """,
        arguments: [.init(name: "source", help: "A file, an http(s) URL, or - for standard input.", repeating: true, optional: true)],
        options: [
            .init(name: "--source", value: "source", help: "daily, 90d, hist or auto, when no <source> is given (default: auto)."),
            .init(name: "--workers", value: "n", help: "Workers storing chunks at once (default: the number of cores)."),
            .init(name: "--chunk-days", value: "n", help: "Days stored per transaction (default: \(ImportOptions.defaultChunkDays))."),
            .init(name: "--from", value: "day", help: "Only days on or after this one (YYYY-MM-DD)."),
            .init(name: "--to", value: "day", help: "Only days on or before this one (YYYY-MM-DD)."),
            .init(name: "--currencies", value: "codes", help: "Only these currencies (USD,JPY,…)."),
            .init(name: "--dry-run", value: nil, help: "Report what would change; store nothing."),
            .init(name: "--wait", value: "seconds", help: "Wait this long for another import to finish (default: 0)."),
            .init(name: "--stack", value: "stack", help: "siblings, child or nested contexts (default: siblings; for benchmarks)."),
            .init(name: "--format", value: "format", help: "text or json (default: text)."),
            CommandSpec.storeOption,
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments.choice("--format", ["text", "json"]) ?? "text"
        var options = ImportOptions()
        if let workers = try arguments.integer("--workers") { options.workers = workers }
        if let chunkDays = try arguments.integer("--chunk-days") { options.chunkDays = chunkDays }
        options.from = try arguments.day("--from")
        options.to = try arguments.day("--to")
        if let from = options.from, let to = options.to, from > to {
            throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name)
        }
        options.currencies = try arguments.currencies("--currencies").map(Set.init)
        options.dryRun = arguments.flag("--dry-run")
        if let stack = try arguments.choice("--stack", ContextStack.allCases.map(\.rawValue)) { options.stack = ContextStack(rawValue: stack)! }
        let wait = try arguments.seconds("--wait") ?? 0
        var sources = arguments.positional.map(FeedSource.init)
        if let choice = try arguments.choice("--source", ["daily", "90d", "hist", "auto"]) {
            guard sources.isEmpty else {
                throw UsageError("give either <source> arguments or '--source <source>', not both", command: spec.name)
            }
            if choice != "auto" { sources = [FeedSource(choice)] }
        }
        if sources.filter({ $0 == .standardInput }).count > 1 {
            throw UsageError("standard input (-) can be read only once", command: spec.name)
        }

        // Files are checked before the store is touched, so that a typo costs nothing.
        for case .file(let path) in sources where !FileManager.default.fileExists(atPath: path) {
            throw FeedSourceError.missing(path: path)
        }
        let store: RatesStore
        if let shared = context.sharedStore {
            store = shared
        } else {
            let storeURL = context.storeURL(arguments)
            let inMemory = options.dryRun && !FileManager.default.fileExists(atPath: storeURL.path)
            store = try RatesStore(url: inMemory ? URL(fileURLWithPath: "/dev/null") : storeURL)
        }
        var progress: ProgressLine?
        var report: (@Sendable (FeedSource, ImportProgress) -> Void)?
        if context.console.errorIsTerminal && format == "text" {
            let line = ProgressLine(console: context.console)
            progress = line
            report = { source, status in line.update(source: source.description, status) }
        }
        let job = ImportJob(store: store, sources: sources, options: options, lockWait: wait, progress: report)
        do {
            let reports = try await job.run()
            progress?.finish()
            render(reports, format: format, console: context.console)
            return ExitCode.success
        } catch let error as ImportJobError {
            progress?.finish()
            var reports = error.reports
            if let partial = error.partial, partial.days > 0 { reports.append(partial) }
            render(reports, format: format, console: context.console, interrupted: error.partial?.source)
            throw error
        }
    }

    static func render(_ reports: [ImportReport], format: String, console: Console, interrupted: String? = nil) {
        if format == "json" {
            console.out(JSONText.render(["imports": .array(reports.map(json))]) + "\n")
            return
        }
        for report in reports {
            var line = text(report)
            if report.source == interrupted && report.source == reports.last?.source && report.days == reports.last?.days {
                line = "\(report.source): stopped by the error below after storing \(report.days) whole day\(report.days == 1 ? "" : "s")"
                    + (report.firstDay.map { first in " (\(first)..\(report.lastDay ?? first))" } ?? "")
                    + ": \(report.inserted) new, \(report.corrected) corrected, \(report.unchanged) unchanged"
            }
            console.out(line + "\n")
            for correction in report.corrections.sorted(by: { ($0.day, $0.currency) < ($1.day, $1.currency) }) {
                console.out("  corrected \(correction.currency) on \(correction.day): \(correction.old) → \(correction.new)\n")
            }
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
