import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates corrections`: the corrections imports made to published rates, newest first.
struct CorrectionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "corrections",
        abstract: "List the corrections the ECB made to rates already stored, newest first.",
        discussion: """
            An import that finds a stored rate published again with another value stores the new value and
            records the correction: the day, the currency, the old and new value, and the import that made
            it. 'ecbrates rate --as-of <time>' answers with the values from before a correction. A store
            written by a release before corrections were recorded lists those made since it was upgraded.
            """)

    @Asked(CorrectionsQuestion.self) var asked: QuestionInput
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let question = try QuerySupport.question(CorrectionsQuestion.self, asked)
        let list = try await QuerySupport.answer(question, store: store, context: context, answering: format)
        context.console.out(list.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
