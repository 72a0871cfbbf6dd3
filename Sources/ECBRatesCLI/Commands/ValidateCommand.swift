import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates validate`: reads and checks files without a store.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "validate",
        abstract: "Check ECB rate files without storing them.",
        discussion: "Prints a summary of each good file; a bad one stops with its error (exit 65).")

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
        for argument in files {
            let source = FeedSource(argument)
            guard source.remoteURL == nil else {
                throw UsageError("validate reads files and standard input; '\(argument)' is a URL", command: name)
            }
            let check = TargetCalendar.readerCheck(today: TargetCalendar.today(at: context.now))
            let summary = try EurofxrefReader(source: source.description, dayRefusal: check).validate(
                source.openLocal())
            summaries.append(summary)
            // Text says each good file as it is read (a later bad one then stops the run).
            if format == .text { context.console.out(ValidationAnswer(files: [summary]).rendered(as: .text)) }
        }
        if format == .json { context.console.out(ValidationAnswer(files: summaries).rendered(as: .json)) }
        return ExitCode.success
    }
}
