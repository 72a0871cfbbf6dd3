import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates latest`: all rates of the newest day (or of a day).
struct LatestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "latest",
        abstract: "Show all rates of the newest stored day (or of --date), per euro or per --base.",
        discussion:
            "A currency asked for with --currencies that has no rate that day is named in a warning and left out.")

    @Asked(LatestQuestion.self) var asked: QuestionInput
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let question = try QuerySupport.question(LatestQuestion.self, asked)
        let answer = try await QuerySupport.answer(question, store: store, context: context, answering: format)
        context.console.out(answer.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
