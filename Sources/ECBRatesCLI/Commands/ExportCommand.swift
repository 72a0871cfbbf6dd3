import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates export`: the rates as CSV, written from a background context.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export the stored rates as CSV (or JSON lines).",
        discussion: """
            long: date,currency,rate, oldest first. wide: the ECB's own eurofxref-hist.csv layout (Date,USD,JPY,…,
            newest first, N/A where a currency has no rate), which tools that read the ECB's file (and 'ecbrates
            import') read. --format ndjson writes one JSON object per line instead. Written a year at a time, in
            constant memory. A range that reaches business days whose rates are out but not stored is an error,
            unless --partial.
            """)

    @Asked(ExportRequest.self) var asked: QuestionInput
    @Option(CommonOptions.format([.csv, .ndjson]), default: .csv) var format: OutputFormat
    @Option(CommonOptions.output) var output: String?
    @Flag(CommonOptions.quiet) var quiet: Bool
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let request = try QuerySupport.fields(ExportRequest.self, asked, command: Self.configuration.name)
        let layout = request.layout ?? .long
        let encoding: RateExporter.Encoding = format == .ndjson ? .ndjson : .csv
        let store = try QuerySupport.openStore(self.store, asOf: request.asOf, context: context, answering: .csv)
        let output = try OutputFile(path: output, console: context.console)
        let now = store.asOf ?? context.now
        let exporter = RateExporter(store: store, now: { now })
        let (from, to, currencies, base, partial) = (
            request.from, request.to, request.currencies, request.base, request.partial
        )
        let summary = try await output.write { output in
            try await exporter.export(
                layout: layout, encoding: encoding, from: from, to: to, currencies: currencies,
                base: base, partial: partial
            ) { text in
                try output.write(text)
            }
        }
        if to == nil { await QuerySupport.warnIfStale(store, context: context) }
        QuerySupport.warnIncomplete(summary.missing, context: context)
        if let path = output.path {
            context.console.note(
                "wrote \(summary.lines) line\(summary.lines == 1 ? "" : "s") (\(layout.rawValue) layout) to \(path)\n")
        }
        return ExitCode.success
    }
}
