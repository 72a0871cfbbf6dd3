import CLibXML2
import Foundation

/// Reads an ECB reference-rate file (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`,
/// `eurofxref-hist.xml`, in any of their layouts) as a stream, in constant memory, checking it
/// as it goes, and hands on its rates in chunks of whole days.
///
/// ```swift
/// let reader = EurofxrefReader(source: "eurofxref-hist.xml", chunkRates: 1_000)
/// let summary = try reader.read(InputStream(fileAtPath: path)!) { chunk in
///     store(chunk.records)          // whole days, about 1,000 rates at a time
/// }
/// print(summary)                    // 7104 days 1999-01-04..2026-09-30, 221064 rates, 41 currencies
/// ```
///
/// Any problem ends the read with a ``FeedError`` that names the source, line and column, after
/// every complete, checked day before it has been handed on. The reader never resolves an
/// external entity, never touches the network, and refuses any DTD before an entity could be
/// expanded. It runs on libxml2's SAX2 interface, the parser Foundation's `XMLParser` wraps on
/// Linux, reading attribute bytes in place (see `scripts/bench` for why not `XMLParser`).
public struct EurofxrefReader: Sendable {
    /// The name errors and the summary give the source (a file name, a URL, `-`).
    public let source: String
    /// About how many rates a chunk holds: chunks end at the first day boundary past it.
    public let chunkRates: Int

    /// A reader for `source`, handing on chunks of at least `chunkRates` rates (whole days).
    public init(source: String, chunkRates: Int = 1_000) {
        precondition(chunkRates > 0, "EurofxrefReader: chunkRates must be positive")
        self.source = source
        self.chunkRates = chunkRates
    }

    /// Reads `stream` to its end (or to the first problem), calling `handler` with each chunk
    /// on the calling thread. An error `handler` throws ends the read and is rethrown.
    public func read(_ stream: InputStream, _ handler: (RateChunk) throws -> Void) throws -> FeedSummary {
        try withoutActuallyEscaping(handler) { handler in
            let session = SAXSession(source: source, chunkRates: chunkRates, handler: handler)
            return try session.run(stream)
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
}

/// One read: the libxml2 push parser, the SAX callbacks and the state they build.
///
/// Used by one thread, inside ``EurofxrefReader/read(_:_:)-(InputStream,_)``, and not beyond.
private final class SAXSession {
    let source: String
    let chunkRates: Int
    let handler: (RateChunk) throws -> Void
    var context: xmlParserCtxtPtr?

    // What was read
    @exclusivity(unchecked) var pending: [RateRecord] = []
    var pendingDays: [CalendarDay] = []
    /// The line of each day read, by days since 1970 (compact: a history ten times the real
    /// one keeps 71,000 of them).
    var dayLines: [Int32: Int32] = [:]
    /// Every currency seen, as its packed code and its string (made once per currency).
    @exclusivity(unchecked) var currencyTable: [(code: UInt32, text: String)] = []
    var totalRates = 0
    var firstDay: CalendarDay?
    var lastDay: CalendarDay?

    // Where the parser is
    var sawRoot = false
    var depth = 0
    var currentDay: CalendarDay?
    var dayDepth = 0
    var dayLine = 0
    var dayColumn: Int?
    @exclusivity(unchecked) var dayCodes: [(code: UInt32, line: Int)] = []
    var dayRateCount = 0

    /// libxml2 interns element and attribute names in its dictionary: these are its pointers for
    /// the names the reader looks for, so that a name is matched by comparing one pointer.
    var names = InternedNames()

    // How it ended
    var error: FeedError?
    var handlerError: (any Error)?
    var stopped = false
    var terminating = false
    /// True while every byte read so far was white space.
    var blankSoFar = true

    static let ecbNamespace = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"
    static let gesmesNamespace = "http://www.gesmes.org/xml/2002-08-01"
    private static let libraryReady: Bool = {
        xmlInitParser()
        return true
    }()

    init(source: String, chunkRates: Int, handler: @escaping (RateChunk) throws -> Void) {
        self.source = source
        self.chunkRates = chunkRates
        self.handler = handler
        pending.reserveCapacity(chunkRates + 64)
    }

    // MARK: Driving the parser

    func run(_ stream: InputStream) throws -> FeedSummary {
        _ = Self.libraryReady
        stream.open()
        defer { stream.close() }
        let bufferSize = 1 << 16
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bufferSize)
        defer { buffer.deallocate() }

        var count = try readChunk(stream, into: buffer, capacity: bufferSize)
        var firstBytes = UnsafeBufferPointer(start: buffer, count: count)
        if count >= 3, firstBytes[0] == 0xEF, firstBytes[1] == 0xBB, firstBytes[2] == 0xBF {
            firstBytes = UnsafeBufferPointer(rebasing: firstBytes[3...])   // a UTF-8 byte-order mark
        }
        if Self.isBlank(firstBytes) && count < bufferSize {
            throw FeedError(source: source, line: nil, column: nil, kind: .empty,
                            message: "the file is empty; expected an ECB rates document (<gesmes:Envelope>)")
        }
        if Self.looksLikeHTML(firstBytes) {
            throw FeedError(source: source, line: 1, column: 1, kind: .notRatesDocument,
                            message: "this is an HTML page, not an ECB rates document (expected <gesmes:Envelope>)")
        }
        if let start = firstBytes.firstIndex(where: { !Self.isBlankByte($0) }),
           firstBytes[start] != UInt8(ascii: "<") {
            let line = firstBytes[..<start].filter { $0 == 0x0A }.count + 1
            let text = firstBytes[start...].prefix { $0 != 0x0A && $0 != 0x0D }
            throw FeedError(source: source, line: line, column: 1, kind: .notRatesDocument,
                            message: "this is not XML (it begins \(RateText.quoted(UnsafeBufferPointer(rebasing: text)))); expected an ECB rates document (<gesmes:Envelope>)")
        }

        var handlerStruct = Self.makeHandler()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let initial = min(count, 4)
        let created = buffer.withMemoryRebound(to: CChar.self, capacity: initial) {
            xmlCreatePushParserCtxt(&handlerStruct, userData, $0, Int32(initial), source)
        }
        guard let context = created else {
            throw FeedError(source: source, line: nil, column: nil, kind: .unreadable, message: "libxml2 could not make a parser")
        }
        self.context = context
        names = InternedNames(dictionary: context.pointee.dict)
        defer {
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))

        blankSoFar = Self.isBlank(firstBytes)
        var offset = initial
        while !stopped {
            if count > offset {
                _ = (buffer + offset).withMemoryRebound(to: CChar.self, capacity: count - offset) {
                    xmlParseChunk(context, $0, Int32(count - offset), 0)
                }
            }
            if stopped { break }
            count = try readChunk(stream, into: buffer, capacity: bufferSize)
            offset = 0
            if count == 0 { break }
            if blankSoFar { blankSoFar = Self.isBlank(UnsafeBufferPointer(start: buffer, count: count)) }
        }
        if !stopped {
            terminating = true
            xmlParseChunk(context, nil, 0, 1)
        }
        if let handlerError { throw handlerError }
        if let error {
            // The days completed before the problem are checked and whole: hand them on first.
            try emit()
            throw error
        }
        if !sawRoot {
            throw FeedError(source: source, line: nil, column: nil, kind: .notRatesDocument,
                            message: "no XML element found; expected an ECB rates document (<gesmes:Envelope>)")
        }
        if totalRates == 0 {
            throw FeedError(source: source, line: nil, column: nil, kind: .structure,
                            message: "no exchange rates found (expected <Cube time=\"YYYY-MM-DD\"> days with <Cube currency=… rate=…/> rates)")
        }
        try emit()
        return FeedSummary(source: source, days: dayLines.count, rates: totalRates, currencies: currencyTable.map(\.text).sorted(),
                           firstDay: firstDay, lastDay: lastDay)
    }

    private func readChunk(_ stream: InputStream, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws -> Int {
        let count = stream.read(buffer, maxLength: capacity)
        if count < 0 {
            throw FeedError(source: source, line: nil, column: nil, kind: .unreadable,
                            message: "could not be read: \(stream.streamError?.localizedDescription ?? "unknown error")")
        }
        return count
    }

    static func isBlankByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy(isBlankByte)
    }

    static func looksLikeHTML(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.firstIndex(where: { !isBlankByte($0) }) else { return false }
        let head = String(decoding: bytes[start...].prefix(64), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localname, _, uri, _, _, attributeCount, _, attributes in
            guard let userData, let localname else { return }
            Unmanaged<SAXSession>.fromOpaque(userData).takeUnretainedValue()
                .startElement(localname, uri: uri, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { userData, _, _, _ in
            guard let userData else { return }
            Unmanaged<SAXSession>.fromOpaque(userData).takeUnretainedValue().endElement()
        }
        handler.internalSubset = { userData, name, _, _ in
            guard let userData else { return }
            Unmanaged<SAXSession>.fromOpaque(userData).takeUnretainedValue().foundDTD(name)
        }
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            Unmanaged<SAXSession>.fromOpaque(userData).takeUnretainedValue().parserError(error.pointee)
        }
        return handler
    }

    private func stop(_ error: FeedError) {
        if !stopped { self.error = error }
        stopped = true
        if let context { xmlStopParser(context) }
    }

    // MARK: Positions

    /// The line and column of a byte the parser has just read (an attribute value), worked out
    /// from libxml2's current position; the current position when the byte is not in its buffer.
    private func position(of pointer: UnsafePointer<UInt8>?) -> (line: Int, column: Int?) {
        guard let input = context?.pointee.input?.pointee, let current = input.cur else { return (0, nil) }
        let line = Int(input.line), column = Int(input.col)
        guard let pointer, let base = input.base, pointer >= base, pointer <= current else { return (line, column) }
        var newlines = 0
        var scan = current
        while scan > pointer {
            scan -= 1
            if scan.pointee == 0x0A { newlines += 1 }
        }
        if newlines == 0 { return (line, column - (current - pointer)) }
        var lineStart = pointer
        while lineStart > base && (lineStart - 1).pointee != 0x0A { lineStart -= 1 }
        let known = lineStart > base || (lineStart == base && base == input.base)
        return (line - newlines, known ? (pointer - lineStart) + 1 : nil)
    }

    /// The `<` that opens the start tag the parser has just read (`<` cannot occur inside an
    /// attribute value, so the nearest one back is it).
    private func startOfCurrentTag() -> UnsafePointer<UInt8>? {
        guard let input = context?.pointee.input?.pointee, var scan = input.cur, let base = input.base else { return nil }
        while scan > base {
            scan -= 1
            if scan.pointee == UInt8(ascii: "<") { return scan }
        }
        return nil
    }

    private func fail(_ kind: FeedError.Kind, at pointer: UnsafePointer<UInt8>?, _ message: String) {
        let (line, column) = position(of: pointer)
        stop(FeedError(source: source, line: line, column: column, kind: kind, message: message))
    }

    // MARK: SAX events

    /// An attribute of the element being started: its value bytes.
    private struct Attribute {
        let value: UnsafeBufferPointer<UInt8>
        var start: UnsafePointer<UInt8>? { value.baseAddress }
    }

    private static func matches(_ pointer: UnsafePointer<UInt8>?, _ text: String) -> Bool {
        guard let pointer else { return false }
        return strcmp(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self), text) == 0
    }

    func startElement(_ localname: UnsafePointer<UInt8>, uri: UnsafePointer<UInt8>?, attributeCount: Int,
                      attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
        guard !stopped else { return }
        depth += 1
        let isCube = localname == names.cube
        if !sawRoot {
            sawRoot = true
            guard Self.matches(localname, "Envelope"), Self.matches(uri, Self.gesmesNamespace) else {
                let name = String(cString: localname)
                let kind = name.lowercased() == "html" ? "an HTML page" : "not an ECB rates document"
                fail(.notRatesDocument, at: startOfCurrentTag(), "the root element is <\(name)>, not <gesmes:Envelope>: \(kind)")
                return
            }
            return
        }
        guard isCube, attributeCount > 0, let attributes else { return }

        var time: Attribute?, currency: Attribute?, rate: Attribute?
        for index in 0..<attributeCount {
            guard let name = attributes[index * 5], let start = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] else { continue }
            let attribute = Attribute(value: UnsafeBufferPointer(start: start, count: end - start))
            if name == names.currency { currency = attribute }
            else if name == names.rate { rate = attribute }
            else if name == names.time { time = attribute }
        }
        if let time {
            startDay(time)
        } else if currency != nil || rate != nil {
            addRate(currency: currency, rate: rate)
        }
    }

    private func startDay(_ time: Attribute) {
        if let currentDay {
            fail(.structure, at: time.start, "a day Cube inside the day Cube of \(currentDay); expected </Cube> first")
            return
        }
        guard let day = CalendarDay(utf8: time.value) else {
            fail(.invalidValue, at: time.start, "day \(RateText.quoted(time.value)) is not a calendar date (expected YYYY-MM-DD)")
            return
        }
        let (line, column) = position(of: time.start)
        let dayKey = Int32(day.daysSince1970)
        if let first = dayLines[dayKey] {
            fail(.duplicate, at: time.start, "day \(day) appears twice (first at line \(first))")
            return
        }
        dayLines[dayKey] = Int32(clamping: line)
        currentDay = day
        dayDepth = depth
        dayLine = line
        dayColumn = column
        dayCodes.removeAll(keepingCapacity: true)
        dayRateCount = 0
    }

    private func addRate(currency: Attribute?, rate: Attribute?) {
        guard let day = currentDay else {
            let what = currency.map { RateText.quoted($0.value) } ?? "without a currency"
            fail(.structure, at: (currency ?? rate)?.start,
                 "a rate Cube (\(what)) outside a day Cube; expected it inside <Cube time=\"YYYY-MM-DD\">")
            return
        }
        guard let currency else {
            fail(.structure, at: rate?.start, "a rate Cube on \(day) has no currency attribute (expected currency=\"XXX\")")
            return
        }
        guard RateText.isCurrencyCode(currency.value) else {
            fail(.invalidValue, at: currency.start,
                 "currency \(RateText.quoted(currency.value)) on \(day) is not a three-letter upper-case code (like USD)")
            return
        }
        let packed = RateText.packed(currency.value)
        let code = interned(packed, currency.value)
        guard let rate else {
            fail(.structure, at: currency.start, "the \(code) Cube on \(day) has no rate attribute (expected rate=\"1.2345\")")
            return
        }
        if let earlier = dayCodes.first(where: { $0.code == packed }) {
            fail(.duplicate, at: currency.start, "\(code) appears twice on \(day) (first at line \(earlier.line))")
            return
        }
        guard let value = RateText.decimal(rate.value) else {
            let negative = rate.value.first == UInt8(ascii: "-") && RateText.decimal(UnsafeBufferPointer(rebasing: rate.value.dropFirst())) != nil
            fail(.invalidValue, at: rate.start,
                 "rate \(RateText.quoted(rate.value)) for \(code) on \(day) is not \(negative ? "positive" : "a decimal number")")
            return
        }
        guard value > 0 else {
            fail(.invalidValue, at: rate.start, "rate \(RateText.quoted(rate.value)) for \(code) on \(day) is not positive")
            return
        }
        dayCodes.append((packed, Int(context?.pointee.input?.pointee.line ?? 0)))
        pending.append(RateRecord(day: day, currency: code, rate: value))
        dayRateCount += 1
    }

    /// The string of a currency code, made once per currency the file holds.
    private func interned(_ packed: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        for entry in currencyTable where entry.code == packed { return entry.text }
        let text = String(decoding: bytes, as: UTF8.self)
        currencyTable.append((packed, text))
        return text
    }

    func endElement() {
        guard !stopped else { return }
        if let day = currentDay, depth == dayDepth {
            currentDay = nil
            if dayRateCount == 0 {
                stop(FeedError(source: source, line: dayLine, column: dayColumn, kind: .structure, message: "day \(day) has no rates"))
                return
            }
            totalRates += dayRateCount
            pendingDays.append(day)
            if firstDay.map({ day < $0 }) ?? true { firstDay = day }
            if lastDay.map({ day > $0 }) ?? true { lastDay = day }
            if pending.count >= chunkRates {
                do {
                    try emit()
                } catch {
                    handlerError = error
                    stopped = true
                    if let context { xmlStopParser(context) }
                }
            }
        }
        depth -= 1
    }

    private func emit() throws {
        guard !pending.isEmpty else { return }
        let chunk = RateChunk(records: pending, days: pendingDays)
        pending.removeAll(keepingCapacity: true)
        pendingDays.removeAll(keepingCapacity: true)
        try handler(chunk)
    }

    func foundDTD(_ name: UnsafePointer<UInt8>?) {
        let (line, column) = position(of: nil)
        stop(FeedError(source: source, line: line, column: column, kind: .notRatesDocument,
                       message: "the document declares a DTD (<!DOCTYPE \(name.map { String(cString: $0) } ?? "")…>); ECB rate files have none, and entities are never read"))
    }

    /// libxml2's message on one line, in plainer words where it has its own idiom: its
    /// encoding error runs over two lines ("Input is not proper UTF-8, indicate encoding !" and
    /// then the bytes).
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if lines.first?.hasPrefix("Input is not proper UTF-8") == true {
            let bytes = lines.dropFirst().first.map { " (" + $0.replacingOccurrences(of: "Bytes: ", with: "bytes ") + ")" } ?? ""
            return "the text is not UTF-8\(bytes), and the file declares no other encoding"
        }
        return lines.joined(separator: "; ")
    }

    func parserError(_ error: xmlError) {
        guard !stopped else { return }
        let message = error.message.map { Self.oneLine(String(cString: $0)) } ?? "error \(error.code)"
        let line = error.line > 0 ? Int(error.line) : nil
        let column = error.int2 > 0 ? Int(error.int2) : nil
        if Int(error.code) == Int(XML_ERR_DOCUMENT_EMPTY.rawValue) && blankSoFar {
            stop(FeedError(source: source, line: nil, column: nil, kind: .empty,
                           message: "the file is empty; expected an ECB rates document (<gesmes:Envelope>)"))
        } else if terminating {
            stop(FeedError(source: source, line: line, column: column, kind: .truncated,
                           message: "the file ends before the document does (truncated?): \(message)"))
        } else {
            stop(FeedError(source: source, line: line, column: column, kind: .malformed, message: "not well-formed XML: \(message)"))
        }
    }
}

/// The pointers libxml2's name dictionary gives the names the reader matches.
private struct InternedNames {
    var cube: UnsafePointer<UInt8>?
    var time: UnsafePointer<UInt8>?
    var currency: UnsafePointer<UInt8>?
    var rate: UnsafePointer<UInt8>?

    init() {}

    init(dictionary: xmlDictPtr?) {
        func intern(_ name: String) -> UnsafePointer<UInt8>? {
            guard let dictionary else { return nil }
            return xmlDictLookup(dictionary, name, -1)
        }
        cube = intern("Cube")
        time = intern("time")
        currency = intern("currency")
        rate = intern("rate")
    }
}
