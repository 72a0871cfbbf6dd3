import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates rate`: the rate of one or more currencies (or all) on a day.
enum RateCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv])

    static let name = "rate"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show the rate of one or more currencies (or all) on a day (default: the newest).",
        discussion: """
        Rates are units of the currency per euro (or per --base). A day without a rate (a weekend, a
        TARGET holiday) takes the rate of the ECB's publication before it, within 14 days, and says so;
        --fallback changes that, for each currency on its own. A currency the euro replaced (or the ECB
        suspended) has no rate after its end, and no fallback crosses it. Published rates are shown as
        the ECB wrote them; cross and interpolated rates to 6 significant digits (20 in JSON and CSV).
        """,
        arguments: [.init(name: "currencies", help: "Currency codes, comma-separated (USD or USD,GBP); all when left out.", optional: true)],
        options: [CommonOptions.date.spec, CommonOptions.base.spec, CommonOptions.fallback.spec, format.spec, CommonOptions.asOf.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        let day = try arguments[CommonOptions.date]
        let fallback = try arguments[CommonOptions.fallback] ?? .previous
        let base = try arguments[CommonOptions.base] ?? "EUR"
        let codes = try arguments.positional.first.map { try arguments.currencies(argument: $0, named: "currencies") }
        let store = try QuerySupport.openStore(arguments, context: context, answering: format)
        let answers = try await QuerySupport.ask(store, context: context) { try $0.rates(codes, on: day, base: base, fallback: fallback) }
        if day == nil { await QuerySupport.warnIfStale(store, context: context) }
        if codes?.count == 1, let answer = answers.first {
            context.console.out(render(answer, format: format))
        } else {
            context.console.out(render(answers, base: base, format: format))
        }
        return ExitCode.success
    }

    /// Several rates: a table for people (one header line when they share a day), a list in
    /// JSON, one line each in CSV.
    static func render(_ answers: [RateAnswer], base: String, format: OutputFormat) -> String {
        switch format {
        case .json:
            return JSONText.object([("base", .string(base)), ("rates", .array(answers.map { json($0) }))]).text + "\n"
        case .csv:
            return CSVText.line(csvHeader) + answers.map { CSVText.line(csvFields($0)) }.joined()
        default:
            guard let first = answers.first else { return "" }
            let sameDay = answers.allSatisfy { $0.day == first.day && $0.asked == first.asked && $0.interpolatedBetween == first.interpolatedBetween }
            var header = "Rates per \(base == "EUR" ? "euro" : base) "
            if sameDay {
                if let between = first.interpolatedBetween, between.count == 2 {
                    header += "on \(first.day), interpolated between \(between[0]) and \(between[1])" + (first.reason.map { " (\($0))" } ?? "")
                } else {
                    header += "on \(first.day)" + (first.asked.map { " (asked \($0)" + (first.reason.map { ", \($0)" } ?? "") + ")" } ?? "")
                }
            } else {
                header += "(each on the day shown)"
            }
            let rows = answers.map { answer in
                [answer.currency, NumberText.rate(answer)] + (sameDay ? [] : [answer.day.description])
            }
            return header + ":\n" + TextTable.render(rows, rightAligned: [1])
        }
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

    static let csvHeader = ["currency", "base", "rate", "day", "asked", "reason"]

    static func csvFields(_ answer: RateAnswer) -> [String] {
        [answer.currency, answer.base, NumberText.machineRate(answer), "\(answer.day)", answer.asked.map { "\($0)" } ?? "", answer.reason ?? ""]
    }

    static func render(_ answer: RateAnswer, format: OutputFormat) -> String {
        switch format {
        case .json: return json(answer).text + "\n"
        case .csv: return CSVText.line(csvHeader) + CSVText.line(csvFields(answer))
        default: return text(answer) + "\n"
        }
    }
}
