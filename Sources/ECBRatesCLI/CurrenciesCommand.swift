import ECBRates
import Foundation

/// `ecbrates currencies`: every currency the store holds.
enum CurrenciesCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv])

    static let name = "currencies"
    static let spec = CommandSpec(
        name: name,
        abstract: "List the currencies in the store, with their first and last day and count of rates.",
        options: [format.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        let store = try QuerySupport.openStore(arguments, context: context)
        let list = try await QuerySupport.ask(store, context: context) { try $0.currencies() }
        switch format {
        case .json:
            context.console.out(JSONText.array(list.map {
                .object([("code", .string($0.code)), ("firstDay", .string($0.firstDay.description)),
                         ("lastDay", .string($0.lastDay.description)), ("rates", .number(Double($0.rates)))])
            }).text + "\n")
        case .csv:
            context.console.out(CSVText.line(["code", "first_day", "last_day", "rates"])
                + list.map { CSVText.line([$0.code, "\($0.firstDay)", "\($0.lastDay)", "\($0.rates)"]) }.joined())
        default:
            context.console.out(TextTable.render([["code", "first", "last", "rates"]]
                + list.map { [$0.code, "\($0.firstDay)", "\($0.lastDay)", "\($0.rates)"] }, rightAligned: [3]))
        }
        return ExitCode.success
    }
}
