import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates series`: rates day by day (or week by week, month by month), as a table, a
/// chart, an SVG file or a stream of JSON lines.
struct SeriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(question: SeriesQuestion.self)

    @Asked(SeriesQuestion.self) var asked: QuestionInput
    @Flag(FlagSpec("--chart", help: "Draw a line chart in the terminal instead of the table.")) var chart: Bool
    @Option(CommonOptions.format(OutputFormat.questionFormats + [.svg])) var format: OutputFormat?
    @Option(CommonOptions.output) var output: String?
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let name = Self.configuration.name
        if chart && format != nil {
            throw UsageError("'--chart' and '--format <format>' cannot be used together", command: name)
        }
        let format = format ?? .text
        let question = try QuerySupport.question(SeriesQuestion.self, asked)
        let (codes, grouping) = (question.currencies, question.grouping)
        let output = try OutputFile(path: output, console: context.console)

        if format == .ndjson {
            // Streamed: a row is written as it is read, a few hundred at a time.
            let store = try QuerySupport.openStore(
                self.store, asOf: question.asOf, context: context, answering: format, oneGeneration: true)
            let (base, partial, quoted) = (question.base, question.partial, question.base)
            let missing = try await output.write { output in
                try await QuerySupport.ask(store, context: context) { queries in
                    let (first, last) = try question.range(queries)
                    let buffer = LineBuffer(output: output)
                    let write: (SeriesTable.Row) throws -> Void = { row in
                        try buffer.add(
                            SeriesTable.ndjsonLine(
                                row, currencies: codes.map(\.text), base: quoted.text, grouping: grouping))
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
            if question.to == nil { await QuerySupport.warnIfStale(store, context: context) }
            return ExitCode.success
        }

        let table = try await QuerySupport.answer(
            question, store: store, context: context, answering: format, oneGeneration: true)
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
                "wrote \(table.rows.count) \(grouping.map { "\($0.period.rawValue)s" } ?? "days") of \(table.currencies.joined(separator: ", ")) to \(path)\n"
            )
        }
        return ExitCode.success
    }
}
