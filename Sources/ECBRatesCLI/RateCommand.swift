import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates rate`: the rate of a currency on a day.
enum RateCommand: Command {
    static let spec = CommandSpec(
        name: "rate",
        abstract: "Show the rate of a currency on a day (default: the newest).",
        discussion: """
        Rates are units of the currency per euro (or per --base). A day without a rate (a weekend, a
        TARGET holiday) takes the rate of the latest earlier day within 14 days, and says so.
        """,
        arguments: [.init(name: "currency", help: "A currency code, like USD.")],
        options: [
            .init(name: "--date", value: "day", help: "The day (YYYY-MM-DD; default: the newest stored day)."),
            .init(name: "--base", value: "currency", help: "Quote against this currency instead of the euro."),
            QuerySupport.fallbackOption, QuerySupport.formatOption, CommandSpec.storeOption,
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try QuerySupport.format(arguments)
        let day = try arguments.day("--date")
        let fallback = try QuerySupport.fallback(arguments)
        let currency = arguments.positional[0], base = arguments.value("--base") ?? "EUR"
        let store = try QuerySupport.openStore(arguments, context: context)
        let answer = try await QuerySupport.ask(store, context: context) { try $0.rate(currency, on: day, base: base, fallback: fallback) }
        if day == nil { await QuerySupport.warnIfStale(store, context: context) }
        context.console.out(render(answer, format: format))
        return ExitCode.success
    }

    /// `USD 1.0876 on 2024-03-28 (asked 2024-03-30, a Saturday)`
    static func text(_ answer: RateAnswer) -> String {
        var text = "\(answer.currency) \(answer.rate)"
        if answer.base != "EUR" { text += " per \(answer.base)" }
        text += " on \(answer.day)"
        if let between = answer.interpolatedBetween, between.count == 2 {
            text += ", interpolated between \(between[0]) and \(between[1])"
            if let reason = answer.reason { text += " (\(reason))" }
        } else if let asked = answer.asked {
            text += " (asked \(asked)" + (answer.reason.map { ", \($0)" } ?? "") + ")"
        }
        return text
    }

    static func json(_ answer: RateAnswer) -> JSONText {
        .object([
            ("currency", .string(answer.currency)), ("base", .string(answer.base)), ("rate", .decimal(answer.rate)),
            ("day", .string(answer.day.description)), ("asked", answer.asked.map { .string($0.description) } ?? .null),
            ("reason", answer.reason.map { .string($0) } ?? .null),
            ("interpolatedBetween", answer.interpolatedBetween.map { .array($0.map { .string($0.description) }) } ?? .null),
        ])
    }

    static func render(_ answer: RateAnswer, format: String) -> String {
        switch format {
        case "json": return json(answer).text + "\n"
        case "csv":
            return CSVText.line(["currency", "base", "rate", "day", "asked", "reason"])
                + CSVText.line([answer.currency, answer.base, "\(answer.rate)", "\(answer.day)", answer.asked.map { "\($0)" } ?? "", answer.reason ?? ""])
        default: return text(answer) + "\n"
        }
    }
}
