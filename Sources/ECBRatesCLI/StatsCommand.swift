import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates stats`: the figures of a currency over a range of days.
enum StatsCommand: Command {
    static let spec = CommandSpec(
        name: "stats",
        abstract: "Show the first, last, lowest, highest and mean rate of a currency, and its change.",
        arguments: [.init(name: "currency", help: "A currency code, like USD.")],
        options: [.init(name: "--from", value: "day", help: "The first day (default: the first stored day)."),
                  .init(name: "--to", value: "day", help: "The last day (default: the newest stored day)."),
                  QuerySupport.formatOption, CommandSpec.storeOption])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try QuerySupport.format(arguments)
        let from = try arguments.day("--from"), to = try arguments.day("--to")
        if let from, let to, from > to { throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name) }
        let currency = arguments.positional[0]
        let store = try QuerySupport.openStore(arguments, context: context)
        let stats = try await QuerySupport.ask(store, context: context) { queries in
            let bounds = try queries.bounds()
            return try queries.stats(currency, from: from ?? bounds.first, to: to ?? bounds.last)
        }
        let fields: [(String, String, String?)] = [
            ("first", "\(stats.first.rate)", "\(stats.first.day)"), ("last", "\(stats.last.rate)", "\(stats.last.day)"),
            ("min", "\(stats.minimum.rate)", "\(stats.minimum.day)"), ("max", "\(stats.maximum.rate)", "\(stats.maximum.day)"),
            ("mean", "\(stats.mean)", nil), ("change", "\(stats.changePercent)%", nil),
        ]
        switch format {
        case "json":
            func point(_ point: (day: EurofxrefFeed.CalendarDay, rate: Decimal)) -> JSONText {
                .object([("day", .string(point.day.description)), ("rate", .decimal(point.rate))])
            }
            context.console.out(JSONText.object([
                ("currency", .string(stats.currency)), ("from", .string(stats.from.description)), ("to", .string(stats.to.description)),
                ("days", .number(Double(stats.days))), ("first", point(stats.first)), ("last", point(stats.last)),
                ("min", point(stats.minimum)), ("max", point(stats.maximum)), ("mean", .decimal(stats.mean)),
                ("changePercent", .decimal(stats.changePercent)),
            ]).text + "\n")
        case "csv":
            context.console.out(CSVText.line(["currency", "from", "to", "days", "first", "first_day", "last", "last_day", "min", "min_day",
                                              "max", "max_day", "mean", "change_percent"])
                + CSVText.line([stats.currency, "\(stats.from)", "\(stats.to)", "\(stats.days)", "\(stats.first.rate)", "\(stats.first.day)",
                                "\(stats.last.rate)", "\(stats.last.day)", "\(stats.minimum.rate)", "\(stats.minimum.day)",
                                "\(stats.maximum.rate)", "\(stats.maximum.day)", "\(stats.mean)", "\(stats.changePercent)"]))
        default:
            context.console.out("\(stats.currency) per euro, \(stats.from)..\(stats.to) (\(stats.days) days):\n"
                + TextTable.render(fields.map { [$0.0, $0.1] + ($0.2.map { ["on \($0)"] } ?? [""]) }, rightAligned: [1]))
        }
        return ExitCode.success
    }
}
