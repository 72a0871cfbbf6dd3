import ECBRates
import Foundation

/// `ecbrates currencies`: every currency the store holds.
struct CurrenciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "currencies",
        abstract: "List the currencies in the store, with their first and last day and count of rates.")

    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let store = try QuerySupport.openStore(self.store, context: context)
        let list = try await QuerySupport.ask(store, context: context) { try $0.currencies() }
        context.console.out(CurrencyList(list).rendered(as: format))
        return ExitCode.success
    }
}
