import Foundation

/// Reads an ECB reference-rate file (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`,
/// `eurofxref-hist.xml`, in any of their layouts) as a stream, in constant memory, checking it
/// as it goes, and hands on its rates in chunks of whole days.
///
/// ```swift
/// let reader = EurofxrefReader(source: "eurofxref-hist.xml", chunkDays: 100)
/// let summary = try reader.read(InputStream(fileAtPath: path)!) { chunk in
///     store(chunk.records)          // 100 whole days at a time
/// }
/// print(summary)                    // 7104 days 1999-01-04..2026-09-30, 221064 rates, 41 currencies
/// ```
///
/// Any problem ends the read with a ``FeedError`` that names the source, line and column, after
/// handing on exactly the whole, checked days that end before the problem's position: never the
/// day in which it sits. Inside the rates, an element, attribute or text the reader does not
/// understand is such a problem (``EurofxrefRules``), as is a rate with more digits than a
/// `Decimal` keeps exactly, or bytes in another encoding than the UTF-8 the ECB publishes. The
/// reader never resolves an external entity, never touches the network, and refuses any DTD
/// before an entity could be expanded. It runs on libxml2's SAX2 interface
/// (``SAXPushParser``), the parser Foundation's `XMLParser` wraps on Linux.
public struct EurofxrefReader: Sendable {
    /// The name errors and the summary give the source (a file name, a URL, `-`).
    public let source: String
    /// How many whole days a chunk holds (the last chunk, and the one before an error, may hold
    /// fewer).
    public let chunkDays: Int
    /// Why a day cannot hold rates (`"is a Saturday: …"`), or nil when it can: the calendar the
    /// caller knows (ECBRates passes the TARGET calendar and today). A day it refuses is an error
    /// at its place in the file.
    public let dayRefusal: (@Sendable (CalendarDay) -> String?)?

    /// A reader for `source`, handing on chunks of `chunkDays` whole days, refusing the days
    /// `dayRefusal` gives a reason for.
    public init(source: String, chunkDays: Int = 100, dayRefusal: (@Sendable (CalendarDay) -> String?)? = nil) {
        precondition(chunkDays > 0, "EurofxrefReader: chunkDays must be positive")
        self.source = source
        self.chunkDays = chunkDays
        self.dayRefusal = dayRefusal
    }

    /// Reads `stream` to its end (or to the first problem), calling `handler` with each chunk
    /// on the calling thread. An error `handler` throws ends the read and is rethrown.
    public func read(_ stream: InputStream, _ handler: (RateChunk) throws -> Void) throws -> FeedSummary {
        try withoutActuallyEscaping(handler) { handler in
            try run(stream, handler)
        }
    }

    /// Reads the bytes of `data` (see ``read(_:_:)-(InputStream,_)``).
    public func read(_ data: Data, _ handler: (RateChunk) throws -> Void) throws -> FeedSummary {
        try read(InputStream(data: data), handler)
    }

    /// Reads a whole source and returns only its summary: checks a file.
    public func validate(_ stream: InputStream) throws -> FeedSummary {
        try read(stream) { _ in }
    }

    private func run(_ stream: InputStream, _ handler: @escaping (RateChunk) throws -> Void) throws -> FeedSummary {
        stream.open()
        defer { stream.close() }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        defer { buffer.deallocate() }

        // What the file is, from its first bytes: gzip or zip (then what they hold), the ECB's
        // CSV (a Date header), or XML (anything else, which the XML reader judges).
        var input: ByteSource = StreamByteSource(stream, source: source)
        var count = try Self.fill(buffer, from: input)
        var spool: ArchiveSpool?
        if let container = Self.container(UnsafeBufferPointer(rebasing: buffer[..<count])) {
            // Checked whole first: not a day of a damaged archive is handed on.
            let checked = try ArchiveSpool(
                stream: stream, prefix: Array(buffer[..<count]), container: container, source: source)
            spool = checked
            input = try InflatingByteSource(try checked.bytes(source: source), container: container, source: source)
            count = try Self.fill(buffer, from: input)
        }
        defer { withExtendedLifetime(spool) {} }
        let firstBlock = UnsafeBufferPointer(rebasing: buffer[..<count])
        let chunking = DayChunking(source: source, chunkDays: chunkDays, dayRefusal: dayRefusal, handler: handler)
        if EurofxrefCSV.looksLikeCSV(firstBlock) {
            let csv = EurofxrefCSV(chunking)
            return try csv.read(firstBlock: firstBlock, rest: input, buffer: buffer)
        }
        try FilePrologue.check(firstBlock, isWholeFile: count < buffer.count, source: source)
        let stream = input

        let rules = EurofxrefRules(chunking)
        let parser = SAXPushParser(source: source, handler: rules)
        try parser.parse(firstBlock: firstBlock, rest: stream, buffer: buffer)
        if let handlerError = rules.handlerError { throw handlerError }
        if let error = parser.error {
            // The days completed before the problem are checked and whole: hand them on first.
            try rules.emitWholeDays()
            throw error
        }
        if !rules.sawRoot {
            throw FeedError(
                source: source, line: nil, column: nil, kind: .notRatesDocument,
                message: "no XML element found; expected an ECB rates document (<gesmes:Envelope>)")
        }
        if rules.totalRates == 0 {
            throw FeedError(
                source: source, line: nil, column: nil, kind: .structure,
                message:
                    "no exchange rates found (expected <Cube time=\"YYYY-MM-DD\"> days with <Cube currency=… rate=…/> rates)"
            )
        }
        try rules.emitWholeDays()
        return rules.summary()
    }

    /// Reads from `input` until `buffer` is full or the input ends; returns the count.
    private static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, from input: ByteSource) throws -> Int {
        var count = 0
        while count < buffer.count {
            let n = try input.read(into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
            if n == 0 { break }
            count += n
        }
        return count
    }

    /// The container the first bytes announce: gzip (1F 8B) or zip (PK 03 04).
    private static func container(_ bytes: UnsafeBufferPointer<UInt8>) -> InflatingByteSource.Container? {
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B { return .gzip }
        if bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x03, bytes[3] == 0x04 { return .zip }
        return nil
    }
}
