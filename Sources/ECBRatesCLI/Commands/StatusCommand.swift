import ECBRates
import Foundation

/// `ecbrates status`: what the store holds and whether it is up to date.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(question: StatusQuestion.self)

    @Option(
        .integer(
            "--max-age-days", minimum: 0,
            help:
                "Exit 1 when the store is more than this many days behind, has holes, or lacks the start of its history."
        ))
    var maxAge: Int?
    @Flag(CommonOptions.quiet) var quiet: Bool
    @Asked(StatusQuestion.self) var asked: QuestionInput
    @Option(CommonOptions.format(OutputFormat.questionFormats), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let question = try QuerySupport.question(StatusQuestion.self, asked)
        let status = try await QuerySupport.answer(question, store: store, context: context, answering: format)
        context.console.out(status.rendered(as: format, warnings: context.warnings.all))
        guard let maxAge else { return ExitCode.success }
        // Every reason the check fails, each with a stable code (one JSON object a line under
        // --format json).
        var reasons: [(code: String, message: String)] = []
        if status.lastDay == nil {
            reasons.append(("empty-store", "the store is empty: no rates at all; run 'ecbrates import'"))
        }
        if status.lastDay != nil, status.ageDays > maxAge {
            reasons.append(
                (
                    "stale-store",
                    "the store is \(status.ageDays) day\(status.ageDays == 1 ? "" : "s") behind, more than --max-age-days \(maxAge)"
                ))
        }
        if let incomplete = status.history.incompleteText { reasons.append(("incomplete-history", incomplete)) }
        if let first = status.holes.first {
            reasons.append(
                (
                    "hole",
                    "the store has \(status.holes.count) hole\(status.holes.count == 1 ? "" : "s") (business days without rates, from \(first)); run 'ecbrates import hist'"
                ))
        }
        for reason in reasons {
            context.console.err(
                format == .json
                    ? ErrorAnswer(message: reason.message, status: ExitCode.stale, code: reason.code).rendered(
                        as: .json)
                    : reason.message + "\n")
        }
        return reasons.isEmpty ? ExitCode.success : ExitCode.stale
    }
}
