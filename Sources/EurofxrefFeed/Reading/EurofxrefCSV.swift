import Foundation

/// The ECB's CSV files, read with the same rules as its XML: `eurofxref-hist.csv` (a `Date`
/// header, then a line per day, newest first, `N/A` where a currency has no rate, a trailing
/// comma), the daily `eurofxref.csv` (`Date, USD, …` with spaces, and days written
/// `21 November 2025`), and `ecbrates export --layout wide`, which is the first.
///
/// Every value is checked where it stands: a day (a calendar date the ECB can have published,
/// once), a code (three upper-case letters, once in the header), a rate (a positive decimal of
/// at most 38 digits, never rounded). The first problem ends the read with a ``FeedError`` at
/// its line and column, after the whole days (lines) before it were handed on, in chunks of
/// `chunkDays`. A line is a day: it is handed on only once all of it has been read and checked.
final class EurofxrefCSV {
    private let source: String
    private let chunkDays: Int
    private let dayRefusal: (@Sendable (CalendarDay) -> String?)?
    private let handler: (RateChunk) throws -> Void

    private var header: [String?] = []
    private var headerSeen = false
    private var dayLines: [Int: Int] = [:]
    private var pending: [RateRecord] = []
    private var pendingDays: [CalendarDay] = []
    private var days = 0
    private var rates = 0
    private var currencies = Set<String>()
    private var firstDay: CalendarDay?
    private var lastDay: CalendarDay?

    static let maximumRateDigits = 38
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    init(_ chunking: DayChunking) {
        source = chunking.source
        chunkDays = chunking.chunkDays
        dayRefusal = chunking.dayRefusal
        handler = chunking.handler
    }

    /// Whether a file that begins with `bytes` is one of the ECB's CSV files: after an optional
    /// UTF-8 byte-order mark and blanks, its first field is `Date`.
    static func looksLikeCSV(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
        let word = Array("Date".utf8)
        guard bytes.count - index >= word.count + 1, Array(bytes[index..<index + word.count]) == word else {
            return false
        }
        return [UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\t")].contains(bytes[index + word.count])
    }

    private func error(_ kind: FeedError.Kind, line: Int, column: Int, _ message: String) -> FeedError {
        FeedError(source: source, line: line, column: column, kind: kind, message: message)
    }

    /// Reads the file: `firstBlock`, then the rest of `input` through `buffer`.
    func read(
        firstBlock: UnsafeBufferPointer<UInt8>, rest input: ByteSource, buffer: UnsafeMutableBufferPointer<UInt8>
    ) throws -> FeedSummary {
        var carry = Array(firstBlock)
        var lineNumber = 1
        var atStart = true
        do {
            while true {
                // Every complete line in `carry`; the incomplete end waits for more bytes.
                var start = 0
                if atStart, carry.count >= 3, carry[0] == 0xEF, carry[1] == 0xBB, carry[2] == 0xBF { start = 3 }
                atStart = false
                while let newline = carry[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    try line(Array(carry[start..<newline]), number: lineNumber)
                    lineNumber += 1
                    start = newline + 1
                }
                carry.removeFirst(start)
                let count = try input.read(into: buffer)
                if count == 0 { break }
                carry += UnsafeBufferPointer(rebasing: buffer[..<count])
            }
            if !carry.isEmpty { try line(carry, number: lineNumber) }
            if !headerSeen {
                throw FeedError(
                    source: source, line: nil, column: nil, kind: .empty,
                    message: "is empty; expected the ECB's CSV (a Date,USD,… header)")
            }
            if rates == 0 {
                throw FeedError(
                    source: source, line: nil, column: nil, kind: .structure,
                    message: "no exchange rates found (the CSV has a header and no days)")
            }
        } catch let error as FeedError {
            // The lines before the problem are whole days: hand them on first.
            try emit()
            throw error
        }
        try emit()
        return FeedSummary(
            source: source, days: days, rates: rates, currencies: currencies.sorted(), firstDay: firstDay,
            lastDay: lastDay)
    }

    /// The fields of a line, each with its 1-based column, blanks around it dropped.
    private func fields(_ bytes: [UInt8], number: Int) throws -> [(text: String, column: Int)] {
        var end = bytes.count
        if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var result: [(String, Int)] = []
        var fieldStart = 0
        var index = 0
        while index <= end {
            if index == end || bytes[index] == UInt8(ascii: ",") {
                var low = fieldStart, high = index
                while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
                while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
                guard let text = String(validating: bytes[low..<high], as: UTF8.self) else {
                    throw error(.invalidValue, line: number, column: low + 1, "the bytes here are not UTF-8 text")
                }
                if text.contains("\"") {
                    throw error(
                        .malformed, line: number, column: low + 1,
                        "quoted field \(text); the ECB's CSV has none (expected a day, a code or a rate)")
                }
                result.append((text, low + 1))
                fieldStart = index + 1
            }
            index += 1
        }
        return result
    }

    private func line(_ bytes: [UInt8], number: Int) throws {
        let fields = try fields(bytes, number: number)
        if fields.count == 1 && fields[0].text.isEmpty { return }  // a blank line
        guard headerSeen else { return try readHeader(fields, number: number) }
        guard fields.count == header.count else {
            let column = fields.count > header.count ? fields[header.count].column : bytes.count + 1
            throw error(
                .structure, line: number, column: column,
                "the line has \(fields.count) fields; the header has \(header.count) (Date and \(header.compactMap { $0 }.count) currencies)"
            )
        }
        let dayField = fields[0]
        guard let day = Self.day(dayField.text) else {
            throw error(
                .invalidValue, line: number, column: dayField.column,
                "day \"\(dayField.text)\" is not a calendar date (expected YYYY-MM-DD, or 21 November 2025)")
        }
        if let reason = dayRefusal?(day) {
            throw error(.invalidValue, line: number, column: dayField.column, "day \(day) \(reason)")
        }
        if let first = dayLines[day.daysSince1970] {
            throw error(
                .duplicate, line: number, column: dayField.column, "day \(day) appears twice (first at line \(first))")
        }
        var records: [RateRecord] = []
        for (index, field) in fields.enumerated().dropFirst() {
            guard let code = header[index] else {
                if !field.text.isEmpty {
                    throw error(
                        .structure, line: number, column: field.column,
                        "value \"\(field.text)\" under an empty header field; expected nothing")
                }
                continue
            }
            if field.text == "N/A" || field.text.isEmpty { continue }
            let value = try rate(field.text, code: code, day: day, line: number, column: field.column)
            records.append(RateRecord(day: day, currency: code, rate: value))
        }
        guard !records.isEmpty else {
            throw error(
                .structure, line: number, column: dayField.column, "day \(day) has no rates (every currency is N/A)")
        }
        dayLines[day.daysSince1970] = number
        pending += records
        pendingDays.append(day)
        days += 1
        rates += records.count
        for record in records { currencies.insert(record.currency) }
        firstDay = min(firstDay ?? day, day)
        lastDay = max(lastDay ?? day, day)
        if pendingDays.count >= chunkDays { try emit() }
    }

    private func readHeader(_ fields: [(text: String, column: Int)], number: Int) throws {
        guard fields[0].text == "Date", fields.count > 1 else {
            throw FeedError(
                source: source, line: number, column: fields[0].column, kind: .notRatesDocument,
                message: "is not the ECB's CSV: expected a header Date,USD,JPY,…")
        }
        var seen: [String: Int] = [:]
        for (index, field) in fields.enumerated().dropFirst() {
            if field.text.isEmpty && index == fields.count - 1 {
                header.append(nil)  // the ECB's trailing comma
                continue
            }
            guard field.text.count == 3,
                field.text.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            else {
                throw error(
                    .invalidValue, line: number, column: field.column,
                    "currency \"\(field.text)\" in the header is not a three-letter upper-case code (like USD)")
            }
            if let first = seen[field.text] {
                throw error(
                    .duplicate, line: number, column: field.column,
                    "\(field.text) appears twice in the header (first at column \(first))")
            }
            seen[field.text] = field.column
            header.append(field.text)
        }
        header.insert(nil, at: 0)  // the Date column
        headerSeen = true
    }

    private func rate(_ text: String, code: String, day: CalendarDay, line: Int, column: Int) throws -> Decimal {
        let parsed = Array(text.utf8).withUnsafeBufferPointer {
            RateText.decimal($0, maximumDigits: Self.maximumRateDigits)
        }
        switch parsed {
        case .value(let value):
            guard value > 0 else {
                throw error(
                    .invalidValue, line: line, column: column, "rate \"\(text)\" for \(code) on \(day) is not positive")
            }
            return value
        case .tooManyDigits(let digits):
            throw error(
                .invalidValue, line: line, column: column,
                "rate \"\(text)\" for \(code) on \(day) has \(digits) digits; at most \(Self.maximumRateDigits) are kept exactly, and a rate is never rounded"
            )
        case .notDecimal:
            throw error(
                .invalidValue, line: line, column: column,
                "rate \"\(text)\" for \(code) on \(day) is not a decimal number (or N/A)")
        }
    }

    /// `2025-11-21` or `21 November 2025`.
    static func day(_ text: String) -> CalendarDay? {
        if let day = CalendarDay(text) { return day }
        let words = text.split(separator: " ")
        guard words.count == 3, let day = Int(words[0]), let month = months.firstIndex(of: String(words[1])),
            words[2].count == 4, let year = Int(words[2])
        else { return nil }
        return CalendarDay(year: year, month: month + 1, day: day)
    }

    private func emit() throws {
        guard !pendingDays.isEmpty else { return }
        let chunk = RateChunk(records: pending, days: pendingDays)
        pending.removeAll(keepingCapacity: true)
        pendingDays.removeAll(keepingCapacity: true)
        try handler(chunk)
    }
}
