import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// `ecbrates convert`: an amount from one currency into another.
enum ConvertCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv])
    static let precision = TypedOption<Int>.integer(
        "--precision", minimum: 0, help: "Decimal places of the result (default: the currency's minor units).")
    static let date = TypedOption<CalendarDay>.day("--date", help: "The day of the rate (YYYY-MM-DD; default: the newest stored day).")

    static let spec = CommandSpec(
        name: "convert",
        abstract: "Convert an amount between two currencies (EUR included), through the euro.",
        discussion: """
        Computed in decimal from the published rates, with no rounding on the way; the result is rounded once,
        half away from zero, to the target currency's minor units (2 for USD, 0 for JPY) unless --precision.
        """,
        arguments: [.init(name: "amount", help: "The amount, like 100, 12.50 or -3.10."),
                    .init(name: "from", help: "The currency of the amount."),
                    .init(name: "to", help: "The currency to convert into.")],
        options: [date.spec, precision.spec, CommonOptions.fallback.spec, format.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        let text = arguments.positional[0]
        let amount = try arguments.amount(argument: text, named: "amount")
        let precision = try arguments[Self.precision]
        let day = try arguments[Self.date]
        let fallback = try arguments[CommonOptions.fallback] ?? .previous
        let from = arguments.positional[1], to = arguments.positional[2]
        let store = try QuerySupport.openStore(arguments, context: context)
        let answer = try await QuerySupport.ask(store, context: context) {
            try $0.convert(amount, from: from, to: to, on: day, fallback: fallback, precision: precision)
        }
        if day == nil { await QuerySupport.warnIfStale(store, context: context) }
        let rate = answer.rate
        let result = NumberText.amount(answer.result, places: answer.places)
        switch format {
        case .json:
            context.console.out(JSONText.object([
                ("amount", .decimal(answer.amount)), ("from", .string(rate.base)), ("to", .string(rate.currency)),
                ("result", .raw(result)), ("rate", .raw(NumberText.machineRate(rate))), ("day", .string(rate.day.description)),
                ("asked", rate.asked.map { .string($0.description) } ?? .null), ("reason", rate.reason.map { .string($0) } ?? .null),
                ("interpolatedBetween", rate.interpolatedBetween.map { .array($0.map { .string($0.description) }) } ?? .null),
                ("legs", RateCommand.json(legs: rate)),
            ]).text + "\n")
        case .csv:
            context.console.out(CSVText.line(["amount", "from", "to", "result", "rate", "day", "asked", "reason"])
                + CSVText.line([DecimalText.format(answer.amount), rate.base, rate.currency, result, NumberText.machineRate(rate), "\(rate.day)",
                                rate.asked.map { "\($0)" } ?? "", rate.reason ?? ""]))
        default:
            var line = "\(text) \(rate.base) = \(result) \(rate.currency) on \(rate.day)"
            line += " (1 \(rate.base) = \(NumberText.rate(rate)) \(rate.currency)"
            if let between = rate.interpolatedBetween, between.count == 2 { line += "; interpolated between \(between[0]) and \(between[1])" }
            if let asked = rate.asked { line += "; asked \(asked)" + (rate.reason.map { ", \($0)" } ?? "") }
            if let legs = RateCommand.legsNote(rate) { line += "; " + legs }
            context.console.out(line + ")\n")
        }
        return ExitCode.success
    }
}
