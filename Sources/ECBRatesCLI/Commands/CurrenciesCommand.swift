import ECBRates
import Foundation

/// `ecbrates currencies`: every currency the store holds.
struct CurrenciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "currencies",
        abstract: "List the currencies in the store, with their first and last day and count of rates.")

    @Asked(CurrenciesQuestion.self) var asked: QuestionInput
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let question = try QuerySupport.question(CurrenciesQuestion.self, asked)
        let list = try await QuerySupport.answer(question, store: store, context: context, answering: format)
        context.console.out(list.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
