import Foundation

/// Records of a CSV file (RFC 4180: fields separated by commas, or by ``delimiter``, optionally
/// in double quotes, with `""` for a quote inside), read from a file descriptor a block at a
/// time: memory holds one block and one record, however long the file.
///
/// ```swift
/// let reader = CSVRecordReader(descriptor: STDIN_FILENO, name: "-")
/// while let record = try reader.next() { print(record.line, record.fields) }
/// ```
public final class CSVRecordReader {
    /// A record: its fields, and the line it starts on (1-based).
    public struct Record: Sendable {
        /// The fields, unquoted.
        public let fields: [String]
        /// The line the record starts on.
        public let line: Int
    }

    /// A problem in the file's syntax: an unterminated quote, text after a closing quote.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// The file's name, as given.
        public let file: String
        /// Where.
        public let line: Int
        public let column: Int
        /// What is wrong.
        public let message: String
        public var description: String { "\(file):\(line):\(column): \(message)" }
    }

    private let descriptor: Int32
    private let name: String
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var count = 0
    private var index = 0
    private var atEnd = false
    private var line = 1
    private var column = 1

    /// A reader of `descriptor` (not closed by the reader), whose errors name `name`.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    private func byte() throws -> UInt8? {
        if index == count {
            if atEnd { return nil }
            var read: Int
            repeat {
                read = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, $0.count) }
            } while read < 0 && errno == EINTR
            if read < 0 {
                throw SyntaxError(
                    file: name, line: line, column: column,
                    message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if read == 0 {
                atEnd = true
                return nil
            }
            count = read
            index = 0
        }
        defer { index += 1 }
        return buffer[index]
    }

    private var atStart = true

    /// The byte between fields (a comma, unless set before the first record is read).
    public var delimiter = UInt8(ascii: ",")

    /// Skips a UTF-8 byte-order mark at the start of the file (Excel's "CSV UTF-8").
    private func skipByteOrderMark() throws {
        guard atStart else { return }
        atStart = false
        if index == count, !atEnd, let first = try byte() {
            index -= 1
            if first == 0xEF, count - index >= 3, buffer[index + 1] == 0xBB, buffer[index + 2] == 0xBF {
                index += 3
            }
        }
    }

    /// The bytes of the file's first line (after a byte-order mark, up to its first line break
    /// outside quotes, within the first 64 KiB), not consumed: what a caller reads to choose the
    /// ``delimiter`` before the first ``next()``.
    public func peekFirstLine() throws -> [UInt8] {
        try skipByteOrderMark()
        while true {
            var inQuotes = false
            for position in index..<count {
                if buffer[position] == UInt8(ascii: "\"") { inQuotes.toggle() }
                if buffer[position] == UInt8(ascii: "\n") && !inQuotes { return Array(buffer[index..<position]) }
            }
            // Not all of it here yet (a pipe gives what it has): read on, after what is here.
            guard !atEnd, count < buffer.count else { return Array(buffer[index..<count]) }
            if index > 0 {
                buffer.replaceSubrange(0..<(count - index), with: buffer[index..<count])
                (count, index) = (count - index, 0)
            }
            var read: Int
            repeat {
                read = buffer.withUnsafeMutableBytes {
                    Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count)
                }
            } while read < 0 && errno == EINTR
            guard read > 0 else {
                if read == 0 { atEnd = true }
                return Array(buffer[index..<count])
            }
            count += read
        }
    }

    /// The next record, or nil at the end of the file. A blank line is not a record; a UTF-8
    /// byte-order mark at the start of the file (Excel's "CSV UTF-8") is not part of it. (The
    /// delimiter may not be a quote or a line break.)
    public func next() throws -> Record? {
        try skipByteOrderMark()
        let delimiter = delimiter
        var fields: [String] = []
        var field: [UInt8] = []
        var start = line
        var quoted = false, inQuotes = false, afterQuote = false, sawAny = false
        while true {
            guard let byte = try byte() else {
                if inQuotes {
                    throw SyntaxError(
                        file: name, line: start, column: 1,
                        message: "a quoted field is not closed before the end of the file")
                }
                if !sawAny { return nil }
                fields.append(String(decoding: field, as: UTF8.self))
                return Record(fields: fields, line: start)
            }
            sawAny = true
            column += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                    afterQuote = true
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1; column = 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if afterQuote {  // "" inside quotes: one quote
                    field.append(byte)
                    inQuotes = true
                    afterQuote = false
                } else if field.isEmpty && !quoted {
                    quoted = true
                    inQuotes = true
                } else {
                    throw SyntaxError(
                        file: name, line: line, column: column - 1,
                        message: "a quote inside an unquoted field; quote the whole field")
                }
            case delimiter:
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                quoted = false
                afterQuote = false
            case UInt8(ascii: "\n"):
                line += 1
                column = 1
                if field.last == UInt8(ascii: "\r") && !afterQuote { field.removeLast() }
                if fields.isEmpty && field.isEmpty && !quoted {
                    sawAny = false  // a blank line
                    start = line
                    continue
                }
                fields.append(String(decoding: field, as: UTF8.self))
                return Record(fields: fields, line: start)
            case UInt8(ascii: "\r") where afterQuote:
                continue
            default:
                if afterQuote {
                    throw SyntaxError(
                        file: name, line: line, column: column - 1,
                        message:
                            "text after a closing quote; expected \(CSVDelimiter(byte: delimiter)?.spelled ?? "the delimiter") or the end of the line"
                    )
                }
                field.append(byte)
            }
        }
    }
}
