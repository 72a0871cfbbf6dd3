import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates rate`: the rate of one or more currencies (or all) on a day.
struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "rate",
        abstract: "Show the rate of one or more currencies (or all) on a day (default: the newest).",
        discussion: """
            Rates are units of the currency per euro (or per --base). A day without a rate (a weekend, a
            TARGET holiday) takes the rate of the ECB's publication before it, within 14 days, and says so;
            --fallback changes that, for each currency on its own. A currency the euro replaced (or the ECB
            suspended) has no rate after its end, and no fallback crosses it. Published rates are shown as
            the ECB wrote them; cross and interpolated rates to 6 significant digits (20 in JSON and CSV).
            """)

    @Asked(RateQuestion.self) var asked: QuestionInput
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let question = try QuerySupport.question(RateQuestion.self, asked)
        let answer = try await QuerySupport.answer(question, store: store, context: context, answering: format)
        context.console.out(answer.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
