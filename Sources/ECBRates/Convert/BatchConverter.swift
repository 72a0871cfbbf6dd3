import EurofxrefFeed
import Foundation
import ManagedStore

/// Converts a CSV of amounts (a header naming `date`, `amount`, `from` and `to` columns, in any
/// order, among any others) into the same rows plus `rate`, `rate_day` and `result`, streaming:
/// memory holds a block of rows, whatever the file's length. Each row is one lookup against the
/// context, through queries that keep the days they read (a ``RateQueries`` made with
/// `cachedDays`), so a file of invoices costs a dictionary read a row once its days are in; the
/// answers are exactly those of `ecbrates convert` (one rounding, to the target's minor units).
///
/// A bad row (a value that is not a day, an amount or a currency, or a conversion that has no
/// answer) stops the batch with a ``BatchConversionError`` naming its line, unless `skipBadRows`:
/// then it is written with its reason in an `error` column (the output keeps every row, in the
/// input's order) and listed in the ``Summary``.
///
/// ```swift
/// let summary = try await BatchConverter(context: store.viewContext)
///     .convert(CSVRecordReader(descriptor: input, name: "invoices.csv")) { text in try output.write(text) }
/// ```
public struct BatchConverter: Sendable {
    /// What a batch did.
    public struct Summary: Sendable {
        /// Rows converted and written.
        public var converted = 0
        /// Bad rows (with `skipBadRows`, written with their reason): line and reason, the first 100.
        public var skipped: [(line: Int, message: String)] = []
        /// How many rows were left out in all.
        public var skippedCount = 0
    }

    /// The context whose queue answers (the main context, for the query front-end).
    public let context: ManagedObjectContext
    /// The fallback for days without a rate.
    public var fallback: RateFallback
    /// Decimal places of the results (nil: each target currency's minor units).
    public var precision: Int?
    /// Leave bad rows out (and count them) rather than stop.
    public var skipBadRows: Bool
    /// What time it is, for the freshness checks.
    public var now: @Sendable () -> Date
    /// Rows converted per turn on the context's queue (three blocks are in flight: parsed, converted, written).
    public var rowsPerTurn = 8_192
    /// What separates the fields (nil: found in the header, which names the four columns only
    /// one way). The output is written with the same.
    public var delimiter: CSVDelimiter?
    /// How the amounts are written (nil: `1234.56`, and an amount another format would read
    /// otherwise is refused as ambiguous). Rates and results are written with its decimal
    /// separator.
    public var amountFormat: AmountFormat?
    /// The door that asked, for the words of advice (`--number-format`, `number_format=`).
    public var door: Door = .commandLine
    /// Told the delimiter found in the header, when it is not a comma, before any row is read.
    public var foundDelimiter: (@Sendable (CSVDelimiter) -> Void)?

    /// A converter answering on `context`.
    public init(
        context: ManagedObjectContext, fallback: RateFallback = .previous, precision: Int? = nil,
        skipBadRows: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.context = context
        self.fallback = fallback
        self.precision = precision
        self.skipBadRows = skipBadRows
        self.now = now
    }

    /// A converter answering on `store`'s main context.
    public init(
        store: RatesStore, fallback: RateFallback = .previous, precision: Int? = nil, skipBadRows: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            context: store.viewContext, fallback: fallback, precision: precision, skipBadRows: skipBadRows, now: now)
    }

    /// The columns the input needs.
    static let required = ["date", "amount", "from", "to"]

    /// Converts every row `reader` gives, handing the output text (header first) to `write` a
    /// block at a time.
    public func convert(
        _ reader: CSVRecordReader, name: String, write: @escaping @Sendable (String) throws -> Void
    ) async throws -> Summary {
        let delimiter: CSVDelimiter
        if let chosen = self.delimiter {
            delimiter = chosen
        } else {
            delimiter = CSVDelimiter.detect(in: try reader.peekFirstLine(), naming: Self.required) ?? .comma
            if delimiter != .comma { foundDelimiter?(delimiter) }
        }
        reader.delimiter = delimiter.byte
        guard let header = try reader.next() else {
            throw BatchConversionError(
                file: name, line: 1, column: nil, message: "is empty; expected a header with date, amount, from and to")
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for added in ["rate", "rate_day", "result"] + (skipBadRows ? ["error"] : []) where names.contains(added) {
            throw BatchConversionError(
                file: name, line: header.line, column: nil,
                message: "the header already has a \(added) column, which the output adds; rename it")
        }
        var columns: [Int] = []
        for wanted in Self.required where names.filter({ $0 == wanted }).count > 1 {
            throw BatchConversionError(
                file: name, line: header.line, column: nil, message: "the header names the \(wanted) column twice")
        }
        for wanted in Self.required {
            guard let index = names.firstIndex(of: wanted) else {
                let separated =
                    self.delimiter.map { "separated by \($0.plural), as \(door.spellDelimiter($0)) says" }
                    ?? "separated by commas, semicolons or tabs"
                throw BatchConversionError(
                    file: name, line: header.line, column: nil,
                    message:
                        "the header lacks a \(wanted) column; expected date, amount, from and to (in any order), \(separated)"
                )
            }
            columns.append(index)
        }
        // The header goes out with the first block: a batch whose first rows fail writes nothing.
        // With skipBadRows, every row stays, in the input's order, with an error column: empty for
        // a converted row, the reason for a bad one (whose rate, rate_day and result are empty).
        let added = ["rate", "rate_day", "result"] + (skipBadRows ? ["error"] : [])
        let separator = String(UnicodeScalar(delimiter.byte))
        var pendingHeader: String? =
            (header.fields + added).map { CSVText.quoted($0, delimiter: delimiter.byte) }
            .joined(separator: separator) + "\n"
        let queries = RateQueries(context: context, cachedDays: 16_384, now: now)
        let box = QueriesBox(queries)
        var summary = Summary()
        let settings = (fallback, precision, skipBadRows)
        let format = amountFormat ?? .plain
        let reading = Reading(
            format: format, named: amountFormat != nil, semicolons: delimiter == .semicolon, door: door)
        func readBlock() throws -> [CSVRecordReader.Record] {
            var block: [CSVRecordReader.Record] = []
            block.reserveCapacity(rowsPerTurn)
            while block.count < rowsPerTurn, let record = try reader.next() { block.append(record) }
            return block
        }
        // Blocks in flight: while the context's queue converts one, this task writes out the
        // one before and reads the one after.
        var block = try readBlock()
        var finished: (records: [CSVRecordReader.Record], outcomes: [Outcome])?
        func writeOut(_ records: [CSVRecordReader.Record], _ outcomes: [Outcome]) throws {
            var text = pendingHeader ?? ""
            pendingHeader = nil
            text.reserveCapacity(records.count * 80)
            for (record, outcome) in zip(records, outcomes) {
                switch outcome {
                case .converted(let rate, let day, let result):
                    // The row as it came (quoted where needed), then the three new fields.
                    for field in record.fields {
                        CSVText.append(field, to: &text, delimiter: delimiter.byte)
                        text += separator
                    }
                    CSVText.append(format.write(rate), to: &text, delimiter: delimiter.byte)
                    text += separator
                    text += day
                    text += separator
                    CSVText.append(format.write(result), to: &text, delimiter: delimiter.byte)
                    if skipBadRows { text += separator }
                    text += "\n"
                    summary.converted += 1
                case .skipped(let line, let message):
                    summary.skippedCount += 1
                    if summary.skipped.count < 100 { summary.skipped.append((line: line, message: message)) }
                    for field in record.fields {
                        CSVText.append(field, to: &text, delimiter: delimiter.byte)
                        text += separator
                    }
                    text += separator + separator + separator
                    CSVText.append("line \(line): \(message)", to: &text, delimiter: delimiter.byte)
                    text += "\n"
                }
            }
            try write(text)
        }
        while !block.isEmpty {
            // Rows are parsed here; the context's queue only looks up and computes.
            let rows = block.map {
                Self.parse($0, name: name, columns: columns, width: header.fields.count, reading: reading)
            }
            async let turn = context.perform { () throws -> [Outcome] in
                try Self.convert(rows, queries: box.queries, name: name, settings: settings)
            }
            if let (records, outcomes) = finished { try writeOut(records, outcomes) }
            let next = block.count < rowsPerTurn ? [] : try readBlock()
            finished = (block, try await turn)
            block = next
        }
        if let (records, outcomes) = finished { try writeOut(records, outcomes) }
        if let pendingHeader { try write(pendingHeader) }
        return summary
    }

    /// What became of a row: its rate, the rate's day and the result, as text; or why it was left out.
    private enum Outcome: Sendable {
        case converted(rate: String, day: String, result: String)
        case skipped(line: Int, message: String)
    }

    /// Queries kept across turns on the context's queue.
    ///
    /// `@unchecked Sendable`: `queries` is used only inside `context.perform`, one turn at a time.
    private final class QueriesBox: @unchecked Sendable {
        let queries: RateQueries
        init(_ queries: RateQueries) { self.queries = queries }
    }

    /// How the amounts are read, and the door that asked (for its advice).
    private struct Reading: Sendable {
        let format: AmountFormat
        let named: Bool
        let semicolons: Bool
        let door: Door
    }

    /// A row read and checked, ready to convert; or what is wrong with it.
    private enum ParsedRow: Sendable {
        case row(line: Int, day: CalendarDay, dayText: String, amount: Decimal, from: String, to: String)
        case bad(BatchConversionError)
    }

    /// The row's day, amount and currencies, or the ``BatchConversionError`` it is (thrown in
    /// its turn, so that the first bad row of the file is the one that stops a batch).
    private static func parse(
        _ record: CSVRecordReader.Record, name: String, columns: [Int], width: Int, reading: Reading
    ) -> ParsedRow {
        func bad(_ message: String) -> ParsedRow {
            .bad(BatchConversionError(file: name, line: record.line, column: nil, message: message))
        }
        guard record.fields.count == width else {
            return bad("the row has \(record.fields.count) fields; the header has \(width)")
        }
        let dayText = Self.trimmed(record.fields[columns[0]])
        guard let day = CalendarDay(dayText) else {
            return bad(
                "date \"\(dayText)\" is not a day; expected \(QuestionField.impossibleDay(dayText) ?? "YYYY-MM-DD")")
        }
        let amountText = Self.trimmed(record.fields[columns[1]])
        let amount: Decimal
        switch reading.format.read(amountText, named: reading.named, semicolons: reading.semicolons) {
        case .value(let value, _): amount = value
        case .ambiguous(let why):
            return bad(
                "amount \"\(amountText)\" (column \(columns[1] + 1)) is ambiguous: \(why); name the number format with \(reading.door.spellNumberFormats)"
            )
        case .notANumber where reading.named:
            return bad(
                "amount \"\(amountText)\" (column \(columns[1] + 1)) is not a number in the format \(reading.format.rawValue)"
            )
        case .notANumber, .tooManyDigits:
            // A thousands separator the default cannot take: said how to name it.
            let grouped = amountText.contains { "'’ \u{00A0}\u{202F}".contains($0) }
            let advice =
                grouped
                ? "; if it has a thousands separator, name the number format with \(reading.door.spellNumberFormats)"
                : ""
            return bad(
                "amount \"\(amountText)\" (column \(columns[1] + 1)) is not a number like 100, 12.50 or -3.10 (of at most \(DecimalMath.amountDigits) digits)\(advice)"
            )
        }
        return .row(
            line: record.line, day: day, dayText: dayText, amount: amount,
            from: Self.trimmed(record.fields[columns[2]]), to: Self.trimmed(record.fields[columns[3]]))
    }

    private static func convert(
        _ rows: [ParsedRow], queries: RateQueries, name: String,
        settings: (RateFallback, Int?, Bool)
    ) throws -> [Outcome] {
        let (fallback, precision, skipBadRows) = settings
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(rows.count)
        for row in rows {
            switch row {
            case .bad(let error):
                guard skipBadRows else { throw error }
                outcomes.append(.skipped(line: error.line, message: error.message))
            case .row(let line, let day, let dayText, let amount, let from, let to):
                // As `convert` answers: the rate, then one rounding of amount × rate.
                do {
                    let rate = try queries.rate(
                        queries.currencyCode(to), on: day, base: queries.currencyCode(from), fallback: fallback)
                    let resultText = try rate.convertedText(
                        amount, places: precision ?? MinorUnits.places(for: rate.currency))
                    let rateText =
                        rate.base == "EUR" && rate.currencyLeg.isPublished
                        ? DecimalText.format(rate.currencyLeg.perEuro) : rate.rateText(significantDigits: 20)
                    outcomes.append(
                        .converted(
                            rate: rateText, day: rate.day == day ? dayText : rate.day.description, result: resultText))
                } catch let error as QueryError {
                    guard skipBadRows else {
                        throw BatchConversionError(file: name, line: line, column: nil, message: error.description)
                    }
                    outcomes.append(.skipped(line: line, message: error.description))
                }
            }
        }
        return outcomes
    }

    /// `text` without spaces or tabs around it (most fields have none: returned as they are).
    static func trimmed(_ text: String) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = text.utf8.first, let last = text.utf8.last, blank(first) || blank(last) else { return text }
        let bytes = Array(text.utf8)
        let start = bytes.firstIndex { !blank($0) } ?? bytes.count
        let end = (bytes.lastIndex { !blank($0) } ?? -1) + 1
        return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : ""
    }

}

/// A row of a batch that cannot be converted, or an input that cannot be read as a batch.
public struct BatchConversionError: Error, Sendable, CustomStringConvertible {
    /// The input's name.
    public let file: String
    /// The line of the row (1-based).
    public let line: Int
    /// The column, when known.
    public let column: Int?
    /// What is wrong.
    public let message: String

    /// The error at `line` (and `column`) of `file`.
    public init(file: String, line: Int, column: Int?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line)\(column.map { ":\($0)" } ?? ""): \(message)" }
}
