import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// `ecbrates convert`: an amount from one currency into another.
enum ConvertCommand: Command {
    static let format = CommonOptions.format([.text, .json, .csv])
    static let precision = TypedOption<Int>.integer(
        "--precision", minimum: 0, maximum: 20, help: "Decimal places of the result, up to 20 (default: the currency's minor units).")
    static let date = TypedOption<CalendarDay>.day("--date", help: "The day of the rate (YYYY-MM-DD; default: the newest stored day).")
    static let input = TypedOption<String>.text(
        "--input", value: "file", help: "Convert every row of this CSV (date,amount,from,to columns; - for standard input) instead.")
    static let skipBadRows = FlagOption("--skip-bad-rows", help: "With --input: leave bad rows out, list them and count them, rather than stop.")

    static let name = "convert"
    /// A batch (`--input`) reads and writes rows on one side while the store converts on the
    /// other: it runs on Dispatch's threads (on the main thread alone it took 1.2–1.5× the time).
    static func runsOnMainThread(_ arguments: ParsedArguments) -> Bool { !arguments.given(input.spec) }
    static let spec = CommandSpec(
        name: name,
        abstract: "Convert an amount between two currencies (EUR included), through the euro.",
        discussion: """
        Computed in decimal from the published rates, with no rounding on the way; the result is rounded once,
        half away from zero, to the target currency's minor units (2 for USD, 0 for JPY) unless --precision.

        With --input, every row of a CSV file is converted on its own day: the header names date, amount, from
        and to columns (in any order, among others); the output is the same rows plus rate, rate_day and result,
        streamed in constant memory. A bad row stops the batch with its line number (exit 65), unless
        --skip-bad-rows. --output writes the result whole or not at all.
        """,
        arguments: [.init(name: "amount", help: "The amount, like 100, 12.50 or -3.10.", optional: true),
                    .init(name: "from", help: "The currency of the amount.", optional: true),
                    .init(name: "to", help: "The currency to convert into.", optional: true)],
        options: [date.spec, precision.spec, CommonOptions.fallback.spec, input.spec, skipBadRows.spec, CommonOptions.output.spec,
                  format.spec, CommonOptions.asOf.spec, CommonOptions.store.spec],
        format: format)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        if let input = try arguments[Self.input] { return try await batch(input, arguments, context: context) }
        for (index, name) in ["amount", "from", "to"].enumerated() where arguments.positional.count <= index {
            throw UsageError("Missing expected argument '<\(name)>'", command: spec.name)
        }
        if arguments[skipBadRows] { throw UsageError("'--skip-bad-rows' needs '--input <file>'", command: spec.name) }
        if arguments.given(CommonOptions.output.spec) { throw UsageError("'--output <file>' needs '--input <file>'", command: spec.name) }
        let format = try arguments[Self.format] ?? .text
        let text = arguments.positional[0]
        let amount = try arguments.amount(argument: text, named: "amount")
        let precision = try arguments[Self.precision]
        let day = try arguments[Self.date]
        let fallback = try arguments[CommonOptions.fallback] ?? .previous
        let from = arguments.positional[1], to = arguments.positional[2]
        let store = try QuerySupport.openStore(arguments, context: context, answering: format)
        let answer = try await QuerySupport.ask(store, context: context) {
            try $0.convert(amount, from: from, to: to, on: day, fallback: fallback, precision: precision)
        }
        if day == nil { await QuerySupport.warnIfStale(store, context: context) }
        let rate = answer.rate
        let result = DecimalMath.text(answer.result, places: answer.places)
        switch format {
        case .json:
            context.console.out(JSONText.object([
                ("amount", .decimal(answer.amount)), ("from", .string(rate.base)), ("to", .string(rate.currency)),
                ("result", .raw(result)), ("rate", .raw(NumberText.machineRate(rate))), ("day", .string(rate.day.description)),
                ("asked", rate.asked.map { .string($0.description) } ?? .null), ("reason", rate.reason.map { .string($0) } ?? .null),
                ("interpolatedBetween", rate.interpolatedBetween.map { .array($0.map { .string($0.description) }) } ?? .null),
                ("legs", RateCommand.json(legs: rate)),
            ]).text + "\n")
        case .csv:
            context.console.out(CSVText.line(["amount", "from", "to", "result", "rate", "day", "asked", "reason"])
                + CSVText.line([DecimalText.format(answer.amount), rate.base, rate.currency, result, NumberText.machineRate(rate), "\(rate.day)",
                                rate.asked.map { "\($0)" } ?? "", rate.reason ?? ""]))
        default:
            var line = "\(text) \(rate.base) = \(result) \(rate.currency) on \(rate.day)"
            line += " (1 \(rate.base) = \(NumberText.rate(rate)) \(rate.currency)"
            if let between = rate.interpolatedBetween, between.count == 2 { line += "; interpolated between \(between[0]) and \(between[1])" }
            if let asked = rate.asked { line += "; asked \(asked)" + (rate.reason.map { ", \($0)" } ?? "") }
            if let legs = RateCommand.legsNote(rate) { line += "; " + legs }
            context.console.out(line + ")\n")
        }
        return ExitCode.success
    }

    /// `convert --input FILE`: every row of a CSV, converted on the main context.
    static func batch(_ input: String, _ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        if let extra = arguments.positional.first { throw UsageError("Unexpected argument '\(extra)' with '--input <file>'", command: spec.name) }
        if arguments.given(date.spec) { throw UsageError("'--date <day>' cannot be used with '--input <file>': each row has its date", command: spec.name) }
        if let format = try arguments[Self.format], format != .csv {
            throw UsageError("'--input <file>' writes CSV; '--format \(format.rawValue)' is not available with it", command: spec.name)
        }
        let descriptor: Int32
        if input == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(input, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FeedSourceError.unreadable(path: input, reason: String(cString: strerror(errno))) }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let store = try QuerySupport.openStore(arguments, context: context, answering: .csv)
        let output = try OutputFile(path: try arguments[CommonOptions.output], console: context.console)
        let now = store.asOf ?? context.now
        let converter = BatchConverter(context: store.viewContext, fallback: try arguments[CommonOptions.fallback] ?? .previous,
                                       precision: try arguments[precision], skipBadRows: arguments[skipBadRows], now: { now })
        let summary: BatchConverter.Summary
        do {
            summary = try await output.write { output in
                try await converter.convert(CSVRecordReader(descriptor: descriptor, name: input), name: input) { try output.write($0) }
            }
        } catch let error as CSVRecordReader.SyntaxError {
            throw BatchConversionError(file: error.file, line: error.line, column: error.column, message: error.message)
        }
        for skipped in summary.skipped { context.console.err("skipped \(input):\(skipped.line): \(skipped.message)\n") }
        if summary.skippedCount > 0 {
            let more = summary.skippedCount - summary.skipped.count
            context.console.err("warning: \(summary.skippedCount) bad row\(summary.skippedCount == 1 ? "" : "s") left out"
                + (more > 0 ? " (the first \(summary.skipped.count) listed above)" : "") + "; \(summary.converted) converted\n")
        }
        if let path = output.path { context.console.note("wrote \(summary.converted) converted rows to \(path)\n") }
        return ExitCode.success
    }
}
