import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates validate`: reads and checks files without a store.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "validate",
        abstract: "Check ECB rate files without storing them.",
        discussion:
            "Prints a summary of each good file and the error of each bad one; every file is read. Exits with the first failure's status (65 for bad data, 66 for a missing file)."
    )

    @RepeatingArgument(.word("file", help: "A file, or - for standard input.", completion: .file), optional: false)
    var files: [String]
    @Option(CommonOptions.format([.text, .json]), default: .text) var format: OutputFormat
    @Flag(CommonOptions.quiet) var quiet: Bool

    var outputFormat: OutputFormat? { format }
    var runsOnMainThread: Bool { false }

    func run(_ context: CommandContext) async throws -> Int32 {
        let name = Self.configuration.name
        guard !files.isEmpty else { throw UsageError("Missing expected argument '<file>'", command: name) }
        var summaries: [FeedSummary] = []
        // Every file is checked: a bad one is reported and the next is read; the exit status is
        // the first failure's.
        var failures: [(file: String, status: Int32, code: String)] = []
        var failed: [ValidationAnswer.Failure] = []
        for argument in files {
            let source = FeedSource(argument)
            guard source.remoteURL == nil else {
                throw UsageError("validate reads files and standard input; '\(argument)' is a URL", command: name)
            }
            let check = TargetCalendar.readerCheck(today: TargetCalendar.today(at: context.now))
            do {
                let summary = try EurofxrefReader(source: source.description, dayRefusal: check).validate(
                    source.openLocal())
                summaries.append(summary)
                // Text says each good file as it is read.
                if format == .text { context.console.out(ValidationAnswer(files: [summary]).rendered(as: .text)) }
            } catch {
                let status = ExitCode.code(for: error), code = FailureKind.code(of: error)
                failures.append((source.description, status, code))
                failed.append(.init(source: source.description, message: FailureText.describe(error), code: code))
                // Text names each bad file's error as it is read; JSON lists them in the answer.
                if format != .json { context.failure(error) }
            }
        }
        if format == .json {
            context.console.out(ValidationAnswer(files: summaries, failed: failed).rendered(as: .json))
        }
        if let first = failures.first {
            let summary =
                "\(failures.count) of \(files.count) file\(files.count == 1 ? "" : "s") failed: \(failures.map(\.file).joined(separator: ", "))"
            if format == .json {
                // One JSON error on standard error, as every command's: the files are in the answer.
                context.console.err(
                    ErrorAnswer(
                        message: files.count == 1 ? failed[0].message : summary, status: first.status, code: first.code
                    )
                    .rendered(as: .json))
            } else if files.count > 1 {
                context.console.err(summary + "\n")
            }
            return first.status
        }
        return ExitCode.success
    }
}
