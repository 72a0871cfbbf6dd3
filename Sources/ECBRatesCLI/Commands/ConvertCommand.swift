import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates convert`: an amount from one currency into another, or every row of a CSV file.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "convert",
        abstract: "Convert an amount between two currencies (EUR included), through the euro.",
        discussion: """
            Computed in decimal from the published rates, with no rounding on the way; the result is rounded once,
            half away from zero, to the target currency's minor units (2 for USD, 0 for JPY) unless --precision.

            With --input, every row of a CSV file is converted on its own day: the header names date, amount, from
            and to columns (in any order, among others), separated by commas, semicolons or tabs (found in the
            header, and said when not commas; --delimiter chooses); the output is the same rows plus rate, rate_day
            and result, with the same separator, streamed in constant memory. Amounts are read as 1234.56 unless
            --number-format names their form (1,234.56, 1.234,56, …); one that could be read two ways is refused.
            A bad row stops the batch with its line number (exit 65), unless --skip-bad-rows. --output writes the
            result whole or not at all.
            """)

    @Asked(ConvertQuestion.self, argumentsOptional: true) var asked: QuestionInput
    @Option(
        .text(
            "--input", value: "file",
            help: "Convert every row of this CSV (date,amount,from,to columns; - for standard input) instead.",
            completion: .file)) var input: String?
    @Flag(
        FlagSpec(
            "--skip-bad-rows",
            help:
                "With --input: keep going past bad rows, each kept with its reason in an error column; list and count them."
        ))
    var skipBadRows: Bool
    @Option(
        .choice(
            "--delimiter", value: "delimiter",
            help: "With --input: comma, semicolon or tab between fields (default: found in the header).")
    ) var delimiter: CSVDelimiter?
    @Option(
        .choice(
            "--number-format", value: "format",
            help:
                "With --input: how amounts are written: 1234.56 (default), 1,234.56, 1'234.56, 1.234,56 (or 1 234,56) or 1234,56."
        )) var numberFormat: AmountFormat?
    @Option(CommonOptions.output) var output: String?
    @Option(CommonOptions.format([.text, .json, .csv])) var format: OutputFormat?
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    /// A batch (`--input`) reads and writes rows on one side while the store converts on the
    /// other: it runs on Dispatch's threads (on the main thread alone it took 1.2–1.5× the time).
    var runsOnMainThread: Bool { input == nil }

    func run(_ context: CommandContext) async throws -> Int32 {
        let asked = asked
        if let input { return try await batch(input, asked: asked, context: context) }
        let name = Self.configuration.name
        let question = try QuerySupport.question(ConvertQuestion.self, asked)
        if skipBadRows { throw UsageError("'--skip-bad-rows' needs '--input <file>'", command: name) }
        if delimiter != nil { throw UsageError("'--delimiter <delimiter>' needs '--input <file>'", command: name) }
        if numberFormat != nil { throw UsageError("'--number-format <format>' needs '--input <file>'", command: name) }
        if output != nil { throw UsageError("'--output <file>' needs '--input <file>'", command: name) }
        let format = format ?? .text
        let answer = try await QuerySupport.answer(question, store: store, context: context, answering: format)
        context.console.out(answer.rendered(as: format, warnings: context.warnings.all))
        return ExitCode.success
    }

    /// `convert --input FILE`: every row of a CSV, converted on the main context.
    func batch(_ input: String, asked: QuestionInput, context: CommandContext) async throws -> Int32 {
        let name = Self.configuration.name
        if let extra = asked.amount("amount")?.text ?? asked.currency("from") ?? asked.currency("to") {
            throw UsageError("Unexpected argument '\(extra)' with '--input <file>'", command: name)
        }
        let fallback = asked.choice("fallback", RateFallback.self) ?? .previous
        let precision = asked.count("precision")
        let asOf = asked.moment("as_of")
        if asked.has("date") {
            throw UsageError(
                "'--date <day>' cannot be used with '--input <file>': each row has its date", command: name)
        }
        if let format, format != .csv {
            throw UsageError(
                "'--input <file>' writes CSV; '--format \(format.rawValue)' is not available with it", command: name)
        }
        let descriptor: Int32
        if input == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(input, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw FeedSourceError.unreadable(path: input, reason: String(cString: strerror(errno)))
            }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let store = try QuerySupport.openStore(self.store, asOf: asOf, context: context, answering: .csv)
        let output = try OutputFile(path: output, console: context.console)
        let now = store.asOf ?? context.now
        var converter = BatchConverter(
            store: store, fallback: fallback, precision: precision, skipBadRows: skipBadRows, now: { now })
        converter.delimiter = delimiter
        converter.amountFormat = numberFormat
        // A separator found, not given, is said (a comma, the standard's, goes without saying).
        let console = context.console
        converter.foundDelimiter = { found in
            console.err(
                "note: \(input) is read as \(found.rawValue)-separated (so its header names date, amount, from and to); --delimiter chooses another\n"
            )
        }
        let summary: BatchConverter.Summary
        do {
            summary = try await output.write { output in
                try await converter.convert(CSVRecordReader(descriptor: descriptor, name: input), name: input) {
                    try output.write($0)
                }
            }
        } catch let error as CSVRecordReader.SyntaxError {
            throw BatchConversionError(file: error.file, line: error.line, column: error.column, message: error.message)
        }
        for skipped in summary.skipped { context.console.err("bad row \(input):\(skipped.line): \(skipped.message)\n") }
        if summary.skippedCount > 0 {
            let more = summary.skippedCount - summary.skipped.count
            context.console.err(
                "warning: \(summary.skippedCount) bad row\(summary.skippedCount == 1 ? "" : "s") not converted, each kept with its reason in the error column"
                    + (more > 0 ? " (the first \(summary.skipped.count) listed above)" : "")
                    + "; \(summary.converted) converted\n")
        }
        if let path = output.path {
            context.console.note("wrote \(summary.converted + summary.skippedCount) rows to \(path)\n")
        }
        return ExitCode.success
    }
}
