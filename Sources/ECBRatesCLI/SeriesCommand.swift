import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// `ecbrates series`: rates day by day, as a table, a chart or an SVG file.
enum SeriesCommand: Command {
    static let spec = CommandSpec(
        name: "series",
        abstract: "Show the rates of one or more currencies day by day, or draw them.",
        discussion: "One row per day with a rate. --chart draws a line chart in the terminal; --format svg writes an SVG chart.",
        arguments: [.init(name: "currencies", help: "Currency codes, comma-separated (USD,JPY).")],
        options: [
            .init(name: "--from", value: "day", help: "The first day (default: a year before --to)."),
            .init(name: "--to", value: "day", help: "The last day (default: the newest stored day)."),
            .init(name: "--chart", value: nil, help: "Draw a line chart in the terminal instead of the table."),
            .init(name: "--format", value: "format", help: "text, json, csv or svg (default: text)."),
            .init(name: "--output", value: "file", help: "Write to this file (whole, or not at all) instead of standard output; - is standard output."),
            CommandSpec.storeOption,
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try QuerySupport.format(arguments, extra: ["svg"])
        try arguments.exclusive("--chart", "--format")
        let codes = arguments.positional[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !codes.isEmpty, codes.allSatisfy({ !$0.isEmpty }) else {
            throw UsageError("The value '\(arguments.positional[0])' is invalid for '<currencies>': expected codes like USD,JPY", command: spec.name)
        }
        let from = try arguments.day("--from"), to = try arguments.day("--to")
        if let from, let to, from > to { throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name) }
        let store = try QuerySupport.openStore(arguments, context: context)
        let table = try await QuerySupport.ask(store, context: context) { queries in
            let bounds = try queries.bounds()
            let end = to ?? bounds.last
            return try queries.series(codes, from: from ?? end.adding(days: -365), to: end)
        }
        let text: String
        if arguments.flag("--chart") {
            text = TerminalChart.render(table, color: context.console.outputIsTerminal && context.environment["NO_COLOR"] == nil
                                                && [nil, "-"].contains(arguments.value("--output")))
        } else {
            switch format {
            case "svg": text = SVGChart.render(table)
            case "json":
                text = JSONText.object([
                    ("currencies", .array(table.currencies.map { .string($0) })),
                    ("rows", .array(table.rows.map { row in
                        .object([("date", .string(row.day.description))] + zip(table.currencies, row.rates).map { ($0, $1.map { .decimal($0) } ?? .null) })
                    })),
                ]).text + "\n"
            case "csv":
                text = CSVText.line(["date"] + table.currencies) + table.rows.map { row in
                    CSVText.line(["\(row.day)"] + row.rates.map { $0.map(DecimalText.format) ?? "" })
                }.joined()
            default:
                text = TextTable.render([["date"] + table.currencies] + table.rows.map { row in
                    ["\(row.day)"] + row.rates.map { $0.map(DecimalText.format) ?? "-" }
                }, rightAligned: Set(1...table.currencies.count))
            }
        }
        let output = try OutputFile(path: arguments.value("--output"), console: context.console)
        try output.write(text)
        try output.commit()
        if let path = output.path {
            context.console.err("wrote \(table.rows.count) days of \(table.currencies.joined(separator: ", ")) to \(path)\n")
        }
        return ExitCode.success
    }
}
