import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// `ecbrates stats`: the figures of a currency over a range of days.
enum StatsCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv])
    static let from = CommonOptions.from("The first day (default: the first stored day).")

    static let name = "stats"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show the first, last, lowest, highest and mean rate of a currency, and its change.",
        arguments: [.init(name: "currency", help: "A currency code, like USD.")],
        options: [from.spec, CommonOptions.to.spec,
                  CommonOptions.base.spec, CommonOptions.partial.spec, format.spec, CommonOptions.asOf.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        let from = try arguments[Self.from], to = try arguments[CommonOptions.to]
        if let from, let to, from > to { throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name) }
        let base = try arguments[CommonOptions.base] ?? "EUR"
        let partial = arguments[CommonOptions.partial]
        let currency = arguments.positional[0]
        let store = try QuerySupport.openStore(arguments, context: context, answering: format, oneGeneration: true)
        let stats = try await QuerySupport.ask(store, context: context) { queries in
            let bounds = try queries.bounds()
            return try queries.stats(currency, from: from ?? bounds.first, to: to ?? bounds.last, base: base, partial: partial)
        }
        // Rates as published against the euro; cross rates, and the mean, as derived values.
        func rate(_ value: Decimal, machine: Bool) -> String { NumberText.figure(value, derived: stats.base != "EUR", machine: machine) }
        func mean(machine: Bool) -> String { NumberText.figure(stats.mean, derived: true, machine: machine) }
        let change = DecimalText.format(stats.changePercent)
        switch format {
        case .json:
            func point(_ point: (day: EurofxrefFeed.CalendarDay, rate: Decimal)) -> JSONText {
                .object([("day", .string(point.day.description)), ("rate", .raw(rate(point.rate, machine: true)))])
            }
            context.console.out(JSONText.object([
                ("currency", .string(stats.currency)), ("base", .string(stats.base)),
                ("from", .string(stats.from.description)), ("to", .string(stats.to.description)),
                ("days", .number(Double(stats.days))), ("first", point(stats.first)), ("last", point(stats.last)),
                ("min", point(stats.minimum)), ("max", point(stats.maximum)), ("mean", .raw(mean(machine: true))),
                ("changePercent", .decimal(stats.changePercent)),
                ("complete", .bool(stats.missing.isEmpty)), ("missing", .array(stats.missing.map { .string($0.description) })),
            ]).text + "\n")
        case .csv:
            context.console.out(CSVText.line(["currency", "base", "from", "to", "days", "first", "first_day", "last", "last_day", "min", "min_day",
                                              "max", "max_day", "mean", "change_percent"])
                + CSVText.line([stats.currency, stats.base, "\(stats.from)", "\(stats.to)", "\(stats.days)",
                                rate(stats.first.rate, machine: true), "\(stats.first.day)", rate(stats.last.rate, machine: true), "\(stats.last.day)",
                                rate(stats.minimum.rate, machine: true), "\(stats.minimum.day)", rate(stats.maximum.rate, machine: true),
                                "\(stats.maximum.day)", mean(machine: true), change]))
        default:
            let fields: [(String, String, String?)] = [
                ("first", rate(stats.first.rate, machine: false), "\(stats.first.day)"), ("last", rate(stats.last.rate, machine: false), "\(stats.last.day)"),
                ("min", rate(stats.minimum.rate, machine: false), "\(stats.minimum.day)"),
                ("max", rate(stats.maximum.rate, machine: false), "\(stats.maximum.day)"),
                ("mean", mean(machine: false), nil), ("change", "\(change)%", nil),
            ]
            let per = stats.base == "EUR" ? "euro" : stats.base
            context.console.out("\(stats.currency) per \(per), \(stats.from)..\(stats.to) (\(stats.days) days):\n"
                + TextTable.render(fields.map { [$0.0, $0.1] + ($0.2.map { ["on \($0)"] } ?? [""]) }, rightAligned: [1]))
        }
        QuerySupport.warnIncomplete(stats.missing, context: context)
        if to == nil { await QuerySupport.warnIfStale(store, context: context) }
        return ExitCode.success
    }
}
