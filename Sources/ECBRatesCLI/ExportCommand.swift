import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates export`: the rates as CSV, written from a background context.
enum ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Export the stored rates as CSV.",
        discussion: """
        long: date,currency,rate, oldest first. wide: the ECB's own eurofxref-hist.csv layout (Date,USD,JPY,…,
        newest first, N/A where a currency has no rate), which tools that read the ECB's file can read.
        """,
        options: [
            .init(name: "--from", value: "day", help: "The first day (default: the first stored day)."),
            .init(name: "--to", value: "day", help: "The last day (default: the newest stored day)."),
            .init(name: "--currencies", value: "codes", help: "Only these currencies (USD,JPY,…)."),
            .init(name: "--layout", value: "layout", help: "long or wide (default: long)."),
            .init(name: "--output", value: "file", help: "Write to this file (whole, or not at all) instead of standard output; - is standard output."),
            CommandSpec.storeOption,
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let layout = try arguments.choice("--layout", RateExporter.Layout.allCases.map(\.rawValue)).flatMap(RateExporter.Layout.init) ?? .long
        let from = try arguments.day("--from"), to = try arguments.day("--to")
        if let from, let to, from > to { throw UsageError("'--from <day>' (\(from)) is after '--to <day>' (\(to))", command: spec.name) }
        let currencies = try arguments.currencies("--currencies")
        let store = try QuerySupport.openStore(arguments, context: context)
        let output = try OutputFile(path: arguments.value("--output"), console: context.console)
        let lines = try await RateExporter(store: store).export(layout: layout, from: from, to: to, currencies: currencies) { text in
            try output.write(text)
        }
        try output.commit()
        if let path = output.path {
            context.console.err("wrote \(lines) lines (\(layout.rawValue) layout) to \(path)\n")
        }
        return ExitCode.success
    }
}
