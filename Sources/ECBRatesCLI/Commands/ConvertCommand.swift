import ECBRates
import EurofxrefFeed
import Foundation

/// `ecbrates convert`: an amount from one currency into another, or every row of a CSV file.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(question: ConvertQuestion.self)

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
    @Option(CommonOptions.format(OutputFormat.questionFormats)) var format: OutputFormat?
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
        // The question's fields, typed (its positional words are the rows' here, and refused).
        let given: ConvertQuestion
        do { given = try ConvertQuestion(asked) } catch {
            throw UsageError(error.message(for: .commandLine), command: name, code: error.code)
        }
        // The words fill the amount first: any word given is an amount.
        if ConvertQuestion.fields.contains(where: { $0.placement == .argument && asked.has($0.name) }) {
            throw UsageError("Unexpected argument '\(given.amount.text)' with '--input <file>'", command: name)
        }
        let (fallback, precision, asOf) = (given.fallback, given.precision, given.asOf)
        if given.date != nil {
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
