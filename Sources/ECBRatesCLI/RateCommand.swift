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
        var text = "\(answer.currency) \(NumberText.rate(answer))"
        if answer.base != "EUR" { text += " per \(answer.base)" }
        text += " on \(answer.day)"
        if let between = answer.interpolatedBetween, between.count == 2 {
            text += ", interpolated between \(between[0]) and \(between[1])"
            if let reason = answer.reason { text += " (\(reason))" }
        } else if let asked = answer.asked {
            text += " (asked \(asked)" + (answer.reason.map { ", \($0)" } ?? "") + ")"
        }
        if let legs = legsNote(answer) { text += "; " + legs }
        return text
    }

    /// When the legs of a cross rate come from different days: which day each used
    /// (`USD of 2024-03-28, GBP interpolated between 2024-03-28 and 2024-04-02`); else nil.
    static func legsNote(_ answer: RateAnswer) -> String? {
        let legs = answer.legs
        guard legs.count == 2, legs[0].sources.map(\.day) != legs[1].sources.map(\.day) else { return nil }
        return legs.map { leg in
            if let between = leg.interpolatedBetween { "\(leg.currency) interpolated between \(between[0]) and \(between[1])" }
            else { "\(leg.currency) of \(leg.day)" }
        }.joined(separator: ", ")
    }

    /// Each leg for programs: the currency, its rate per euro, the day, and the published rates
    /// it comes from (exact), so that any answer can be recomputed.
    static func json(legs answer: RateAnswer) -> JSONText {
        .array(answer.legs.map { leg in
            .object([
                ("currency", .string(leg.currency)),
                ("perEuro", leg.isPublished ? .decimal(leg.perEuro) : NumberText.machine(leg.perEuro)),
                ("day", .string(leg.day.description)),
                ("published", .array(leg.sources.map { .object([("day", .string($0.day.description)), ("perEuro", .decimal($0.perEuro))]) })),
            ])
        })
    }

    static func json(_ answer: RateAnswer) -> JSONText {
        .object([
            ("currency", .string(answer.currency)), ("base", .string(answer.base)), ("rate", .raw(NumberText.machineRate(answer))),
            ("day", .string(answer.day.description)), ("asked", answer.asked.map { .string($0.description) } ?? .null),
            ("reason", answer.reason.map { .string($0) } ?? .null),
            ("interpolatedBetween", answer.interpolatedBetween.map { .array($0.map { .string($0.description) }) } ?? .null),
            ("legs", json(legs: answer)),
        ])
    }

    static func render(_ answer: RateAnswer, format: String) -> String {
        switch format {
        case "json": return json(answer).text + "\n"
        case "csv":
            return CSVText.line(["currency", "base", "rate", "day", "asked", "reason"])
                + CSVText.line([answer.currency, answer.base, NumberText.machineRate(answer), "\(answer.day)",
                                answer.asked.map { "\($0)" } ?? "", answer.reason ?? ""])
        default: return text(answer) + "\n"
        }
    }
}
