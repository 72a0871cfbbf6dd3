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

    @OptionalArgument(
        .currencies("currencies", help: "Currency codes, comma-separated (USD or USD,GBP); all when left out."))
    var currencies: [String]?
    @Option(CommonOptions.date) var date: CalendarDay?
    @Option(CommonOptions.base, default: "EUR") var base: String
    @Option(CommonOptions.fallback, default: .previous) var fallback: RateFallback
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.asOf) var asOf: Date?
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let (codes, day, base, fallback) = (currencies, date, base, fallback)
        let store = try QuerySupport.openStore(self.store, asOf: asOf, context: context, answering: format)
        let answers = try await QuerySupport.ask(store, context: context) {
            try $0.rates(codes, on: day, base: base, fallback: fallback)
        }
        if day == nil { await QuerySupport.warnIfStale(store, context: context) }
        if codes?.count == 1, let answer = answers.first {
            context.console.out(answer.rendered(as: format, warnings: context.warnings.all))
        } else {
            context.console.out(
                RatesAnswer(base: base, rates: answers).rendered(as: format, warnings: context.warnings.all))
        }
        return ExitCode.success
    }
}
