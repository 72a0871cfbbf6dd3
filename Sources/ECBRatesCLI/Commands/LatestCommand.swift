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

    @Option(CommonOptions.currencies) var currencies: [String]?
    @Option(CommonOptions.date) var date: CalendarDay?
    @Option(CommonOptions.base, default: "EUR") var base: String
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let (currencies, day, base) = (currencies, date, base)
        let store = try QuerySupport.openStore(self.store, context: context)
        let (answers, missing) = try await QuerySupport.ask(store, context: context) { queries in
            guard let currencies else { return (try queries.rates(on: day, base: base), [String]()) }
            var answers: [RateAnswer] = [], missing: [QueryError] = []
            for code in currencies {
                do {
                    answers += try queries.rates([code], on: day, base: base)
                } catch let error as QueryError {
                    guard case .notQuoted = error else { throw error }
                    missing.append(error)
                }
            }
            // None of them has a rate: that is no answer at all.
            if answers.isEmpty, let first = missing.first { throw first }
            return (answers, missing.map(\.description))
        }
        if day == nil { await QuerySupport.warnIfStale(store, context: context) }
        for message in missing { context.warn(AnswerWarning(code: "missing-currency", message: message)) }
        context.console.out(
            RatesAnswer(base: base.uppercased(), rates: answers).rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
