import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates latest`: all rates of the newest day (or of a day).
enum LatestCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv])

    static let name = "latest"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show all rates of the newest stored day (or of --date), per euro or per --base.",
        discussion: "A currency asked for with --currencies that has no rate that day is named in a warning and left out.",
        options: [CommonOptions.currencies.spec, CommonOptions.date.spec, CommonOptions.base.spec, format.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        let currencies = try arguments[CommonOptions.currencies]
        let day = try arguments[CommonOptions.date]
        let base = try arguments[CommonOptions.base] ?? "EUR"
        let store = try QuerySupport.openStore(arguments, context: context)
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
        for message in missing { context.console.err("warning: \(message)\n") }
        context.console.out(RateCommand.render(answers, base: base.uppercased(), format: format))
        return ExitCode.success
    }
}
