import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates export`: the rates as CSV, written from a background context.
enum ExportCommand: Command {
    static let format = CommonOptions.format([.csv, .ndjson])
    static let from = CommonOptions.from("The first day (default: the first stored day).")
    static let layout = TypedOption<RateExporter.Layout>.choice("--layout", value: "layout", help: "long or wide (default: long).")

    static let name = "export"
    static let spec = CommandSpec(
        name: name,
        abstract: "Export the stored rates as CSV (or JSON lines).",
        discussion: """
        long: date,currency,rate, oldest first. wide: the ECB's own eurofxref-hist.csv layout (Date,USD,JPY,…,
        newest first, N/A where a currency has no rate), which tools that read the ECB's file (and 'ecbrates
        import') read. --format ndjson writes one JSON object per line instead. Written a year at a time, in
        constant memory. A range that reaches business days whose rates are out but not stored is an error,
        unless --partial.
        """,
        options: [from.spec, CommonOptions.to.spec, CommonOptions.currencies.spec, CommonOptions.base.spec, layout.spec, format.spec,
                  CommonOptions.output.spec, CommonOptions.partial.spec, CommonOptions.quiet.spec, CommonOptions.asOf.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let layout = try arguments[Self.layout] ?? .long
        let encoding: RateExporter.Encoding = try arguments[Self.format] == .ndjson ? .ndjson : .csv
        let from = try arguments[Self.from], to = try arguments[CommonOptions.to]
        if let from, let to, from > to { throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name) }
        let currencies = try arguments[CommonOptions.currencies]
        let base = try arguments[CommonOptions.base] ?? "EUR"
        if layout == .wide && base != "EUR" {
            // The ECB's layout says nothing of a base: a file of cross rates in it would be read
            // back (by ecbrates or any tool that reads the ECB's CSV) as rates per euro.
            throw UsageError("'--layout wide' is the ECB's layout, rates per euro; with '--base <currency>' use '--layout long'", command: spec.name)
        }
        let partial = arguments[CommonOptions.partial]
        let store = try QuerySupport.openStore(arguments, context: context, answering: .csv)
        let output = try OutputFile(path: try arguments[CommonOptions.output], console: context.console)
        let now = store.asOf ?? context.now
        let exporter = RateExporter(store: store, now: { now })
        let summary = try await output.write { output in
            try await exporter.export(layout: layout, encoding: encoding, from: from, to: to, currencies: currencies,
                                      base: base, partial: partial) { text in
                try output.write(text)
            }
        }
        if to == nil { await QuerySupport.warnIfStale(store, context: context) }
        QuerySupport.warnIncomplete(summary.missing, context: context)
        if let path = output.path {
            context.console.note("wrote \(summary.lines) line\(summary.lines == 1 ? "" : "s") (\(layout.rawValue) layout) to \(path)\n")
        }
        return ExitCode.success
    }
}
