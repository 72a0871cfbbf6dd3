import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates series`: rates day by day (or week by week, month by month), as a table, a
/// chart, an SVG file or a stream of JSON lines.
struct SeriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "series",
        abstract: "Show the rates of one or more currencies day by day, or draw them.",
        discussion: """
            One row per day with a rate. --chart draws a line chart in the terminal; --format svg writes an SVG chart;
            --format ndjson streams one JSON object per line in constant memory. A range that reaches business days
            whose rates are out but not stored is an error, unless --partial.
            """)

    @Argument(.currencies("currencies", help: "Currency codes, comma-separated (USD,JPY).")) var currencies: [String]
    @Option(CommonOptions.from("The first day (default: a year before --to).")) var from: CalendarDay?
    @Option(CommonOptions.to) var to: CalendarDay?
    @Option(CommonOptions.base, default: "EUR") var base: String
    @Option(
        .choice(
            "--group", value: "period",
            help:
                "One row per week (from Monday), month, quarter or year, with its count of days: the mean of its rates, or --statistic."
        ))
    var group: SeriesGrouper.Period?
    @Option(.choice("--statistic", value: "figure", help: "With --group: mean (default), first, last, min or max."))
    var statistic: SeriesGrouper.Statistic?
    @Flag(FlagSpec("--chart", help: "Draw a line chart in the terminal instead of the table.")) var chart: Bool
    @Option(CommonOptions.format([.text, .json, .csv, .ndjson, .svg])) var format: OutputFormat?
    @Option(CommonOptions.output) var output: String?
    @Flag(CommonOptions.partial) var partial: Bool
    @Option(CommonOptions.asOf) var asOf: Date?
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let name = Self.configuration.name
        if chart && format != nil {
            throw UsageError("'--chart' and '--format <format>' cannot be used together", command: name)
        }
        let format = format ?? .text
        let (codes, from, to, base, partial) = (currencies, from, to, base, partial)
        try QuerySupport.checkRange(from: from, to: to, command: name)
        if statistic != nil && group == nil {
            throw UsageError("'--statistic <figure>' needs '--group <period>'", command: name)
        }
        let grouping = group.map { SeriesTable.Grouping(period: $0, statistic: statistic ?? .mean) }
        let store = try QuerySupport.openStore(
            self.store, asOf: asOf, context: context, answering: format, oneGeneration: true)
        let output = try OutputFile(path: output, console: context.console)
        let quoted = base.uppercased()

        if format == .ndjson {
            // Streamed: a row is written as it is read, a few hundred at a time.
            let missing = try await output.write { output in
                try await QuerySupport.ask(store, context: context) { queries in
                    let (first, last) = try Self.range(queries, from: from, to: to)
                    let buffer = LineBuffer(output: output)
                    let write: (SeriesTable.Row) throws -> Void = { row in
                        try buffer.add(SeriesTable.ndjsonLine(row, currencies: codes, base: quoted, grouping: grouping))
                    }
                    var grouper = grouping.map {
                        SeriesGrouper(period: $0.period, statistic: $0.statistic, columns: codes.count, emit: write)
                    }
                    let (_, _, missing) = try queries.eachSeriesRow(
                        codes, from: first, to: last, base: base, partial: partial
                    ) { row in
                        if grouper != nil { try grouper!.add(row) } else { try write(row) }
                    }
                    try grouper?.finish()
                    try buffer.flush()
                    return missing
                }
            }
            QuerySupport.warnIncomplete(missing, context: context)
            if to == nil { await QuerySupport.warnIfStale(store, context: context) }
            return ExitCode.success
        }

        var table = try await QuerySupport.ask(store, context: context) { queries in
            let (first, last) = try Self.range(queries, from: from, to: to)
            return try queries.series(codes, from: first, to: last, base: base, partial: partial)
        }
        if let grouping {
            var rows: [SeriesTable.Row] = []
            var grouper = SeriesGrouper(
                period: grouping.period, statistic: grouping.statistic, columns: table.currencies.count
            ) { rows.append($0) }
            for row in table.rows { try grouper.add(row) }
            try grouper.finish()
            table = SeriesTable(currencies: table.currencies, rows: rows, missing: table.missing, base: table.base)
            table.grouping = grouping
        }
        QuerySupport.warnIncomplete(table.missing, context: context)
        if to == nil { await QuerySupport.warnIfStale(store, context: context) }
        let text: String
        if chart {
            text = TerminalChart.render(
                table,
                columns: output.path == nil
                    ? TerminalChart.columns(
                        environment: context.environment, outputIsTerminal: context.console.outputIsTerminal) : 80,
                color: context.console.outputIsTerminal && context.environment["NO_COLOR"] == nil && output.path == nil)
        } else if format == .svg {
            text = SVGChart.render(table)
        } else {
            text = table.rendered(as: format, warnings: context.warnings.all)
        }
        try await output.write { output in try output.write(text) }
        if let path = output.path {
            context.console.note(
                "wrote \(table.rows.count) \(group.map { "\($0.rawValue)s" } ?? "days") of \(table.currencies.joined(separator: ", ")) to \(path)\n"
            )
        }
        return ExitCode.success
    }

    /// The range asked for, with its defaults: the year before the newest stored day.
    static func range(_ queries: RateQueries, from: CalendarDay?, to: CalendarDay?) throws -> (CalendarDay, CalendarDay)
    {
        let end = try to ?? queries.bounds().last
        return (from ?? end.adding(days: -365), end)
    }
}
