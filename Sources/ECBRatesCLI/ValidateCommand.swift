import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates validate`: reads and checks files without a store.
enum ValidateCommand: Command {
    static let name = "validate"
    static func runsOnMainThread(_ arguments: ParsedArguments) -> Bool { false }
    static let spec = CommandSpec(
        name: name,
        abstract: "Check ECB rate files without storing them.",
        discussion: "Prints a summary of each good file; a bad one stops with its error (exit 65).",
        arguments: [.init(name: "file", help: "A file, or - for standard input.", repeating: true)],
        options: [format.spec, CommonOptions.quiet.spec],
        format: format)

    static let format = CommonOptions.format([.text, .json])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        guard !arguments.positional.isEmpty else { throw UsageError("Missing expected argument '<file>'", command: spec.name) }
        var summaries: [JSONText] = []
        for argument in arguments.positional {
            let source = FeedSource(argument)
            guard source.remoteURL == nil else {
                throw UsageError("validate reads files and standard input; '\(argument)' is a URL", command: spec.name)
            }
            let summary = try EurofxrefReader(source: source.description, dayRefusal: TargetCalendar.readerCheck(today: TargetCalendar.today(at: context.now))).validate(source.openLocal())
            if format == .json {
                summaries.append(.object([
                    ("source", .string(summary.source)), ("days", .number(Double(summary.days))),
                    ("rates", .number(Double(summary.rates))), ("currencies", .array(summary.currencies.map { .string($0) })),
                    ("firstDay", summary.firstDay.map { .string($0.description) } ?? .null),
                    ("lastDay", summary.lastDay.map { .string($0.description) } ?? .null),
                ]))
            } else {
                context.console.out("\(summary.source): ok, \(summary)\n")
            }
        }
        if format == .json { context.console.out(JSONText.render(["files": .array(summaries)]) + "\n") }
        return ExitCode.success
    }
}
