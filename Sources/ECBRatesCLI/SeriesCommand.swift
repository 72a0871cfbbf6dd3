import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// `ecbrates series`: rates day by day (or week by week, month by month), as a table, a
/// chart, an SVG file or a stream of JSON lines.
enum SeriesCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv, .ndjson, .svg])
    static let from = CommonOptions.from("The first day (default: a year before --to).")
    static let chart = FlagOption("--chart", help: "Draw a line chart in the terminal instead of the table.")
    static let group = TypedOption<SeriesGrouper.Period>.choice(
        "--group", value: "period", help: "One row per week (from Monday) or month: the mean of its rates, or --statistic.")
    static let statistic = TypedOption<SeriesGrouper.Statistic>.choice(
        "--statistic", value: "figure", help: "With --group: mean (default), first, last, min or max.")

    static let name = "series"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show the rates of one or more currencies day by day, or draw them.",
        discussion: """
        One row per day with a rate. --chart draws a line chart in the terminal; --format svg writes an SVG chart;
        --format ndjson streams one JSON object per line in constant memory. A range that reaches business days
        whose rates are out but not stored is an error, unless --partial.
        """,
        arguments: [.init(name: "currencies", help: "Currency codes, comma-separated (USD,JPY).")],
        options: [from.spec, CommonOptions.to.spec, CommonOptions.base.spec, group.spec, statistic.spec, chart.spec, format.spec,
                  CommonOptions.output.spec, CommonOptions.partial.spec, CommonOptions.asOf.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        try arguments.exclusive(chart.spec, Self.format.spec)
        let codes = try arguments.currencies(argument: arguments.positional[0], named: "currencies")
        let from = try arguments[Self.from], to = try arguments[CommonOptions.to]
        if let from, let to, from > to { throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name) }
        let base = try arguments[CommonOptions.base] ?? "EUR"
        let period = try arguments[group]
        let figure = try arguments[statistic]
        if figure != nil && period == nil { throw UsageError("'--statistic <figure>' needs '--group <period>'", command: spec.name) }
        let partial = arguments[CommonOptions.partial]
        let store = try QuerySupport.openStore(arguments, context: context, answering: format, oneGeneration: true)
        let output = try OutputFile(path: try arguments[CommonOptions.output], console: context.console)
        let shape = Shape(period: period, statistic: figure ?? .mean, base: base.uppercased())

        if format == .ndjson {
            // Streamed: a row is written as it is read, a few hundred at a time.
            let missing = try await output.write { output in try await QuerySupport.ask(store, context: context) { queries in
                let (first, last) = try range(queries, from: from, to: to)
                let buffer = LineBuffer(output: output)
                let write: (SeriesTable.Row) throws -> Void = { row in try buffer.add(ndjson(row, codes: codes, shape: shape)) }
                var grouper = period.map { SeriesGrouper(period: $0, statistic: shape.statistic, columns: codes.count, emit: write) }
                let (_, _, missing) = try queries.eachSeriesRow(codes, from: first, to: last, base: base, partial: partial) { row in
                    if grouper != nil { try grouper!.add(row) } else { try write(row) }
                }
                try grouper?.finish()
                try buffer.flush()
                return missing
            } }
            QuerySupport.warnIncomplete(missing, context: context)
            if to == nil { await QuerySupport.warnIfStale(store, context: context) }
            return ExitCode.success
        }

        var table = try await QuerySupport.ask(store, context: context) { queries in
            let (first, last) = try range(queries, from: from, to: to)
            return try queries.series(codes, from: first, to: last, base: base, partial: partial)
        }
        if let period {
            var rows: [SeriesTable.Row] = []
            var grouper = SeriesGrouper(period: period, statistic: shape.statistic, columns: table.currencies.count) { rows.append($0) }
            for row in table.rows { try grouper.add(row) }
            try grouper.finish()
            table = SeriesTable(currencies: table.currencies, rows: rows, missing: table.missing, base: table.base)
        }
        let text: String
        if arguments[chart] {
            text = TerminalChart.render(table, color: context.console.outputIsTerminal && context.environment["NO_COLOR"] == nil && output.path == nil)
        } else {
            switch format {
            case .svg: text = SVGChart.render(table)
            case .json:
                text = JSONText.object([
                    ("base", .string(table.base)), ("currencies", .array(table.currencies.map { .string($0) })),
                    ("group", period.map { .string($0.rawValue) } ?? .null),
                    ("statistic", period == nil ? .null : .string(shape.statistic.rawValue)),
                    ("complete", .bool(table.missing.isEmpty)), ("missing", .array(table.missing.map { .string($0.description) })),
                    ("rows", .array(table.rows.map { row in
                        .object([("date", .string(row.day.description))] + zip(table.currencies, row.rates).map { ($0, shape.json($1)) })
                    })),
                ]).text + "\n"
            case .csv:
                text = CSVText.line([shape.dateColumn] + table.currencies) + table.rows.map { row in
                    CSVText.line(["\(row.day)"] + row.rates.map { $0.map { shape.cell($0, machine: true) } ?? "" })
                }.joined()
            default:
                text = TextTable.render([[shape.dateColumn] + table.currencies] + table.rows.map { row in
                    ["\(row.day)"] + row.rates.map { $0.map { shape.cell($0, machine: false) } ?? "-" }
                }, rightAligned: Set(1...table.currencies.count))
            }
        }
        try await output.write { output in try output.write(text) }
        QuerySupport.warnIncomplete(table.missing, context: context)
        if to == nil { await QuerySupport.warnIfStale(store, context: context) }
        if let path = output.path {
            context.console.note("wrote \(table.rows.count) \(period.map { "\($0.rawValue)s" } ?? "days") of \(table.currencies.joined(separator: ", ")) to \(path)\n")
        }
        return ExitCode.success
    }

    /// The range asked for, with its defaults: the year before the newest stored day.
    static func range(_ queries: RateQueries, from: CalendarDay?, to: CalendarDay?) throws -> (CalendarDay, CalendarDay) {
        let end = try to ?? queries.bounds().last
        return (from ?? end.adding(days: -365), end)
    }

    /// How values are shown: published rates exactly; cross rates and means as derived values.
    struct Shape: Sendable {
        let period: SeriesGrouper.Period?
        let statistic: SeriesGrouper.Statistic
        let base: String

        var derived: Bool { base != "EUR" || (period != nil && statistic == .mean) }
        var dateColumn: String { period?.rawValue ?? "date" }

        func cell(_ value: Decimal, machine: Bool) -> String { NumberText.figure(value, derived: derived, machine: machine) }

        func json(_ value: Decimal?) -> JSONText {
            value.map { .raw(cell($0, machine: true)) } ?? .null
        }
    }

    /// `{"date":"2024-03-28","USD":1.0811}`
    static func ndjson(_ row: SeriesTable.Row, codes: [String], shape: Shape) -> String {
        JSONText.object([("date", .string(row.day.description))] + zip(codes, row.rates).map { ($0, shape.json($1)) }).text + "\n"
    }
}

/// Lines gathered into pieces of about 64 KiB before they are written.
///
/// `@unchecked Sendable`: used by one queue at a time (the query's); `text` is touched only there.
final class LineBuffer: @unchecked Sendable {
    private let output: OutputFile
    private var text = ""

    init(output: OutputFile) {
        self.output = output
        text.reserveCapacity(70_000)
    }

    func add(_ line: String) throws {
        text += line
        if text.utf8.count >= 65_536 { try flush() }
    }

    func flush() throws {
        guard !text.isEmpty else { return }
        try output.write(text)
        text.removeAll(keepingCapacity: true)
    }
}
