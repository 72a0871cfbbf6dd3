import ECBRates
import Foundation

/// `ecbrates latest`: the newest day's rates.
enum LatestCommand: Command {
    static let spec = CommandSpec(
        name: "latest",
        abstract: "Show the rates of the newest stored day.",
        options: [.init(name: "--currencies", value: "codes", help: "Only these currencies (USD,JPY,…)."),
                  QuerySupport.formatOption, CommandSpec.storeOption])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try QuerySupport.format(arguments)
        let currencies = try arguments.currencies("--currencies")
        let store = try QuerySupport.openStore(arguments, context: context)
        let latest = try await QuerySupport.ask(store, context: context) { try $0.latest(currencies) }
        await QuerySupport.warnIfStale(store, context: context)
        for (code, lastDay) in latest.missing {
            context.console.err("warning: \(code) has no rate on \(latest.day)" + (lastDay.map { "; it was last quoted on \($0)" } ?? "") + "\n")
        }
        switch format {
        case "json":
            context.console.out(JSONText.object([
                ("day", .string(latest.day.description)),
                ("rates", .object(latest.rates.map { ($0.currency, .decimal($0.rate)) })),
            ]).text + "\n")
        case "csv":
            context.console.out(CSVText.line(["date", "currency", "rate"]) + latest.rates.map { CSVText.line(["\(latest.day)", $0.currency, "\($0.rate)"]) }.joined())
        default:
            context.console.out("Rates of \(latest.day), per euro:\n" + TextTable.render(latest.rates.map { [$0.currency, "\($0.rate)"] }, rightAligned: [1]))
        }
        return ExitCode.success
    }
}
