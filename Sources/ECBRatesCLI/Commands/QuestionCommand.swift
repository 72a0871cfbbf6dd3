import ECBRates
import Foundation

/// The command that asks a question: `ecbrates <name>`, made whole from the question (its name,
/// abstract and discussion, an option or argument per field) with the formats every door offers
/// (text, and `/api/`'s json, csv and ndjson) and `--store`. Every question in
/// ``Questions/all`` without a command of its own (``CLI/commandsOfTheirOwn``) is asked by one.
/// Its answer comes from one state of the store, whatever an import in another process commits
/// meanwhile.
struct QuestionCommand<Q: Question>: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(question: Q.self) }

    @Asked(Q.self) var asked: QuestionInput
    @Option(CommonOptions.format(OutputFormat.questionFormats), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let question = try QuerySupport.question(Q.self, asked)
        let answer = try await QuerySupport.answer(
            question, store: store, context: context, answering: format, oneGeneration: true)
        context.console.out(answer.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
