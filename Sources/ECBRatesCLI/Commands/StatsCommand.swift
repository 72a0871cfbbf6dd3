import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates stats`: the figures of a currency over a range of days.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "stats", abstract: "Show the first, last, lowest, highest and mean rate of a currency, and its change.")

    @Argument(.currency("currency", help: "A currency code, like USD.")) var currency: String
    @Option(CommonOptions.from("The first day (default: the first stored day).")) var from: CalendarDay?
    @Option(CommonOptions.to) var to: CalendarDay?
    @Option(CommonOptions.base, default: "EUR") var base: String
    @Flag(CommonOptions.partial) var partial: Bool
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.asOf) var asOf: Date?
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let (currency, from, to, base, partial) = (currency, from, to, base, partial)
        try QuerySupport.checkRange(from: from, to: to, command: Self.configuration.name)
        let store = try QuerySupport.openStore(
            self.store, asOf: asOf, context: context, answering: format, oneGeneration: true)
        let stats = try await QuerySupport.ask(store, context: context) { queries in
            let bounds = try queries.bounds()
            return try queries.stats(
                currency, from: from ?? bounds.first, to: to ?? bounds.last, base: base, partial: partial)
        }
        QuerySupport.warnIncomplete(stats.missing, context: context)
        if to == nil { await QuerySupport.warnIfStale(store, context: context) }
        context.console.out(stats.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }
}
