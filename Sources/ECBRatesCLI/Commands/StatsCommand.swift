import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates stats`: the figures of a currency over a range of days.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "stats", abstract: "Show the first, last, lowest, highest and mean rate of a currency, and its change.")

    @Asked(StatsQuestion.self) var asked: QuestionInput
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let question = try QuerySupport.question(StatsQuestion.self, asked)
        let stats = try await QuerySupport.answer(
            question, store: store, context: context, answering: format, oneGeneration: true)
        context.console.out(stats.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
