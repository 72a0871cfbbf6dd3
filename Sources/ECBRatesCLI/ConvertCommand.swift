import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates convert`: an amount from one currency into another.
enum ConvertCommand: Command {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Convert an amount between two currencies (EUR included), through the euro.",
        discussion: "Computed in decimal; rounded to the target currency's minor units (2 for USD, 0 for JPY) unless --precision.",
        arguments: [.init(name: "amount", help: "The amount, like 100 or 12.50."),
                    .init(name: "from", help: "The currency of the amount."),
                    .init(name: "to", help: "The currency to convert into.")],
        options: [
            .init(name: "--date", value: "day", help: "The day of the rate (YYYY-MM-DD; default: the newest stored day)."),
            .init(name: "--precision", value: "n", help: "Decimal places of the result (default: the currency's minor units)."),
            QuerySupport.fallbackOption, QuerySupport.formatOption, CommandSpec.storeOption,
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try QuerySupport.format(arguments)
        let text = arguments.positional[0]
        guard let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), text.range(of: #"^-?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil else {
            throw UsageError("The value '\(text)' is invalid for '<amount>': expected a number like 100 or 12.50", command: spec.name)
        }
        let precision = try arguments.integer("--precision", minimum: 0)
        let day = try arguments.day("--date")
        let fallback = try QuerySupport.fallback(arguments)
        let from = arguments.positional[1], to = arguments.positional[2]
        let store = try QuerySupport.openStore(arguments, context: context)
        let answer = try await QuerySupport.ask(store, context: context) {
            try $0.convert(amount, from: from, to: to, on: day, fallback: fallback, precision: precision)
        }
        if day == nil { await QuerySupport.warnIfStale(store, context: context) }
        let rate = answer.rate
        switch format {
        case "json":
            context.console.out(JSONText.object([
                ("amount", .decimal(answer.amount)), ("from", .string(rate.base)), ("to", .string(rate.currency)),
                ("result", .decimal(answer.result)), ("rate", .decimal(rate.rate)), ("day", .string(rate.day.description)),
                ("asked", rate.asked.map { .string($0.description) } ?? .null), ("reason", rate.reason.map { .string($0) } ?? .null),
            ]).text + "\n")
        case "csv":
            context.console.out(CSVText.line(["amount", "from", "to", "result", "rate", "day", "asked", "reason"])
                + CSVText.line(["\(answer.amount)", rate.base, rate.currency, formatted(answer), "\(rate.rate)", "\(rate.day)",
                                rate.asked.map { "\($0)" } ?? "", rate.reason ?? ""]))
        default:
            var line = "\(text) \(rate.base) = \(formatted(answer)) \(rate.currency) on \(rate.day)"
            line += " (1 \(rate.base) = \(rate.rate) \(rate.currency)"
            if let asked = rate.asked { line += "; asked \(asked)" + (rate.reason.map { ", \($0)" } ?? "") }
            context.console.out(line + ")\n")
        }
        return ExitCode.success
    }

    /// The result with exactly its decimal places (`12.50`, `15700`).
    static func formatted(_ answer: ConversionAnswer) -> String {
        let text = "\(answer.result)"
        guard answer.places > 0 else { return text }
        let parts = text.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return String(parts[0]) + "." + fraction.padding(toLength: answer.places, withPad: "0", startingAt: 0)
    }
}
