internal import CLibXML2
import Foundation

/// What ``SAXPushParser`` reports as it reads: the events of libxml2's SAX2 interface that an
/// ECB file needs, with the parser at hand to place them in the file.
///
/// Called on the thread that drives the parser, from inside libxml2; the pointers are valid only
/// during the call.
protocol SAXEventHandler: AnyObject {
    /// An element starts. `localname` and `namespace` are libxml2's interned strings (compare
    /// them with ``SAXPushParser/intern(_:)``'s pointers); `attributes` holds `count` groups of
    /// five pointers (local name, prefix, namespace, value start, value end).
    func startElement(
        _ localname: UnsafePointer<UInt8>, namespace: UnsafePointer<UInt8>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, in parser: SAXPushParser)
    /// The current element ends.
    func endElement(in parser: SAXPushParser)
    /// Character data (including white space between elements); `isCDATA` for a CDATA section's.
    func characters(_ bytes: UnsafeBufferPointer<UInt8>, isCDATA: Bool, in parser: SAXPushParser)
    /// The document has a DTD, named `name`.
    func foundDTD(_ name: String, in parser: SAXPushParser)
}

/// The libxml2 side of reading a file: a SAX2 push parser fed from a stream in 64 KiB blocks,
/// that never resolves an external entity or touches the network, turns libxml2's errors into
/// ``FeedError``s, and places an event's bytes at a line and column.
///
/// It knows nothing of exchange rates: ``EurofxrefRules`` gives its events their meaning. Used
/// by one thread, for one read.
final class SAXPushParser {
    /// The source's name, for errors.
    let source: String
    private unowned let handler: any SAXEventHandler
    private var context: xmlParserCtxtPtr?

    /// The first error (libxml2's, or one ``stop(_:)`` was given); parsing stops at it.
    private(set) var error: FeedError?
    /// True once the parser was stopped (by an error, or by the handler).
    private(set) var stopped = false
    /// True while the end of the input is being parsed (an error then means a truncated file).
    private var terminating = false
    /// True while every byte read so far was white space.
    private var blankSoFar = true

    /// libxml2, loaded and set up once per process when a file is first read; or why not.
    private static let loaded: Result<LibXML2Library, LibXML2Library.LoadFailure> = {
        var api = clibxml2_api()
        if let error = clibxml2_load(&api) { return .failure(.init(reason: String(cString: error))) }
        clibxml2_init_parser(&api)
        return .success(LibXML2Library(api: api))
    }()
    /// The loaded library's functions, for this read.
    private var api = clibxml2_api()

    init(source: String, handler: any SAXEventHandler) {
        self.source = source
        self.handler = handler
    }

    /// Parses `firstBlock` (the block the caller already read and checked) and then the rest of
    /// `stream`, to its end or the first error.
    func parse(
        firstBlock: UnsafeBufferPointer<UInt8>, rest stream: ByteSource, buffer: UnsafeMutableBufferPointer<UInt8>
    ) throws {
        switch Self.loaded {
        case .success(let library): api = library.api
        case .failure(let failure):
            throw FeedError(
                source: source, line: nil, column: nil, kind: .unreadable,
                message: "libxml2 could not be loaded (\(failure.reason)); install libxml2")
        }
        var callbacks = Self.makeCallbacks()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let initial = min(firstBlock.count, 4)
        let created = firstBlock.withMemoryRebound(to: CChar.self) {
            clibxml2_create_push_parser(&api, &callbacks, userData, $0.baseAddress, Int32(initial), source)
        }
        guard let context = created else {
            throw FeedError(
                source: source, line: nil, column: nil, kind: .unreadable, message: "libxml2 could not make a parser")
        }
        self.context = context
        defer {
            clibxml2_free_parser(&api, context)
            self.context = nil
        }
        _ = clibxml2_use_options(&api, context, Int32(XML_PARSE_NONET.rawValue))

        blankSoFar = Self.isBlank(firstBlock)
        var block = UnsafeBufferPointer(rebasing: firstBlock[initial...])
        while !stopped {
            if !block.isEmpty {
                _ = block.withMemoryRebound(to: CChar.self) {
                    clibxml2_parse_chunk(&api, context, $0.baseAddress, Int32($0.count), 0)
                }
            }
            if stopped { break }
            let count = try stream.read(into: buffer)
            if count == 0 { break }
            block = UnsafeBufferPointer(rebasing: buffer[..<count])
            if blankSoFar { blankSoFar = Self.isBlank(block) }
        }
        if !stopped {
            terminating = true
            _ = clibxml2_parse_chunk(&api, context, nil, 0, 1)
        }
    }

    /// Stops parsing with `error` (the first error given is the one kept).
    func stop(_ error: FeedError) {
        if !stopped { self.error = error }
        stopped = true
        if let context { clibxml2_stop_parser(&api, context) }
    }

    /// Stops parsing without an error of the parser's (the handler has one of its own).
    func halt() {
        stopped = true
        if let context { clibxml2_stop_parser(&api, context) }
    }

    /// libxml2's pointer for `name` in its dictionary: the pointer the events give for that name.
    func intern(_ name: String) -> UnsafePointer<UInt8>? {
        guard let dictionary = context?.pointee.dict else { return nil }
        return clibxml2_dict_lookup(&api, dictionary, name, -1)
    }

    // MARK: Positions

    /// The line and column of a byte in libxml2's input buffer (an attribute value, a tag),
    /// worked out from the parser's current position; the current position when the byte is not
    /// in its buffer.
    func position(of pointer: UnsafePointer<UInt8>?) -> (line: Int, column: Int?) {
        guard let input = context?.pointee.input?.pointee, let current = input.cur else { return (0, nil) }
        let here = (line: Int(input.line), column: Int(input.col))
        guard let pointer, let base = input.base, let end = input.end, pointer >= base, pointer <= end else {
            return (here.line, here.column)
        }
        return Self.position(of: pointer, from: current, at: here, base: base)
    }

    /// The line and column of the byte `offset` bytes into character data libxml2 has passed.
    /// Its line and column then stand at the end of the text, but its current position does not
    /// always: it passes ASCII text in place, before it moves its current position past it, and
    /// other text as a copy, once it has read it (so the text ends where the parser stands).
    func position(ofText passed: UnsafeBufferPointer<UInt8>, offset: Int) -> (line: Int, column: Int?) {
        guard let input = context?.pointee.input?.pointee, let current = input.cur, let base = input.base,
            let end = input.end, let start = passed.baseAddress
        else { return position(of: nil) }
        let here = (line: Int(input.line), column: Int(input.col))
        let textEnd = start >= base && start < end ? start + passed.count : current
        let target = textEnd - (passed.count - offset)
        guard target >= base else { return (here.line, here.column) }
        return Self.position(of: target, from: textEnd, at: here, base: base)
    }

    /// The line and column of `target`, given that `reference` is at `here`: the newlines
    /// between them move the line, and the column counts characters (not UTF-8's continuation
    /// bytes), as libxml2's does.
    private static func position(
        of target: UnsafePointer<UInt8>, from reference: UnsafePointer<UInt8>, at here: (line: Int, column: Int),
        base: UnsafePointer<UInt8>
    ) -> (line: Int, column: Int?) {
        var newlines = 0
        var characters = 0
        var scan = min(target, reference)
        while scan < max(target, reference) {
            if scan.pointee == 0x0A { newlines += 1 }
            if scan.pointee & 0xC0 != 0x80 { characters += 1 }
            scan += 1
        }
        if newlines == 0 { return (here.line, here.column + (target < reference ? -characters : characters)) }
        var lineStart = target
        while lineStart > base && (lineStart - 1).pointee != 0x0A { lineStart -= 1 }
        let column = UnsafeBufferPointer(start: lineStart, count: target - lineStart).reduce(1) {
            $0 + ($1 & 0xC0 != 0x80 ? 1 : 0)
        }
        return (target < reference ? here.line - newlines : here.line + newlines, column)
    }

    /// Where character data libxml2 passed begins in its buffer, `offset` bytes in: the bytes
    /// themselves when passed in place; for a copy (a reference's replacement, text that is
    /// not ASCII), the first byte that is not blank after the markup before the parser's
    /// position (the text as written, `&amp;` and all). `nil` when neither is in the buffer.
    func textStart(_ passed: UnsafeBufferPointer<UInt8>, offset: Int) -> UnsafePointer<UInt8>? {
        guard let input = context?.pointee.input?.pointee, let base = input.base, let end = input.end,
            var scan = input.cur, let start = passed.baseAddress
        else { return nil }
        if start >= base && start < end { return start + offset }
        while scan > base && (scan - 1).pointee != UInt8(ascii: ">") { scan -= 1 }
        while scan < end && Self.isBlankByte(scan.pointee) { scan += 1 }
        return scan < end ? scan : nil
    }

    /// The text as written in the buffer from `start` up to the next markup (`<`), at most
    /// `limit` bytes: what an error quotes.
    func writtenText(from start: UnsafePointer<UInt8>, limit: Int = 60) -> UnsafeBufferPointer<UInt8> {
        guard let end = context?.pointee.input?.pointee.end else { return UnsafeBufferPointer(start: start, count: 0) }
        var scan = start
        while scan < end && scan.pointee != UInt8(ascii: "<") && scan - start < limit { scan += 1 }
        return UnsafeBufferPointer(start: start, count: scan - start)
    }

    /// The `<` that opens the start tag the parser has just read (`<` cannot occur inside an
    /// attribute value, so the nearest one back is it).
    func startOfCurrentTag() -> UnsafePointer<UInt8>? {
        guard let input = context?.pointee.input?.pointee, var scan = input.cur, let base = input.base else {
            return nil
        }
        while scan > base {
            scan -= 1
            if scan.pointee == UInt8(ascii: "<") { return scan }
        }
        return nil
    }

    /// Where an attribute value the parser has just passed begins in its buffer: libxml2 passes
    /// a plain ASCII value in place, and a copy of any other (one with other characters, or one
    /// it had to normalize); a copy is looked for, quoted, in the start tag just read (white
    /// space as libxml2 normalizes it). `nil` (the parser's position) when it is not found, as
    /// for a value written with entity references.
    func place(of value: UnsafeBufferPointer<UInt8>) -> UnsafePointer<UInt8>? {
        guard let input = context?.pointee.input?.pointee, let base = input.base, let current = input.cur,
            let end = input.end, let start = value.baseAddress
        else { return nil }
        if start >= base && start <= end { return start }
        guard var scan = startOfCurrentTag() else { return nil }
        while scan + value.count + 1 < current {
            let quote = scan.pointee
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
                (scan + 1 + value.count).pointee == quote,
                (0..<value.count).allSatisfy({ Self.sameAfterNormalizing(raw: (scan + 1 + $0).pointee, value[$0]) })
            {
                return scan + 1
            }
            scan += 1
        }
        return nil
    }

    /// Whether a byte written in a tag reads as `value` once libxml2 has normalized the
    /// attribute (a tab, line feed or carriage return becomes a space).
    private static func sameAfterNormalizing(raw: UInt8, _ value: UInt8) -> Bool {
        raw == value || (value == 0x20 && (raw == 0x09 || raw == 0x0A || raw == 0x0D))
    }

    /// The first byte of the name of the attribute whose value starts at `value` (`name="value"`:
    /// back over the quote, blanks, `=`, blanks, then the name); `value` itself when the bytes
    /// before it are not in libxml2's buffer or not an attribute's.
    func startOfAttributeName(valueAt value: UnsafePointer<UInt8>?) -> UnsafePointer<UInt8>? {
        guard let value, let input = context?.pointee.input?.pointee, let base = input.base, let end = input.end,
            value > base, value <= end
        else { return value }
        var scan = value - 1  // the quote
        while scan > base && Self.isBlankByte((scan - 1).pointee) { scan -= 1 }
        guard scan > base, (scan - 1).pointee == UInt8(ascii: "=") else { return value }
        scan -= 1
        while scan > base && Self.isBlankByte((scan - 1).pointee) { scan -= 1 }
        let nameEnd = scan
        while scan > base && !Self.isBlankByte((scan - 1).pointee) { scan -= 1 }
        return scan < nameEnd ? scan : value
    }

    /// Whether the start tag just read ends with `>` or `/>`. libxml2 reports a start tag
    /// before it checks its end; one that does not end is its error (truncated, malformed),
    /// which it reports next, and the tag is not passed on as an element.
    fileprivate func startTagIsClosed() -> Bool {
        guard let input = context?.pointee.input?.pointee, let current = input.cur, let end = input.end else {
            return true
        }
        var scan = current
        while scan < end && SAXPushParser.isBlankByte(scan.pointee) { scan += 1 }
        return scan < end && (scan.pointee == UInt8(ascii: ">") || scan.pointee == UInt8(ascii: "/"))
    }

    // MARK: Callbacks

    static func isBlankByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy(isBlankByte)
    }

    fileprivate static func instance(_ userData: UnsafeMutableRawPointer) -> SAXPushParser {
        Unmanaged<SAXPushParser>.fromOpaque(userData).takeUnretainedValue()
    }

    private static func makeCallbacks() -> xmlSAXHandler {
        var callbacks = xmlSAXHandler()
        callbacks.initialized = XML_SAX2_MAGIC
        callbacks.startElementNs = { userData, localname, _, uri, _, _, attributeCount, _, attributes in
            guard let userData, let localname else { return }
            let parser = SAXPushParser.instance(userData)
            guard !parser.stopped, parser.startTagIsClosed() else { return }
            var none: UnsafePointer<UInt8>? = nil
            withUnsafeMutablePointer(to: &none) { empty in
                parser.handler.startElement(
                    localname, namespace: uri, attributeCount: Int(attributeCount),
                    attributes: attributes ?? empty, in: parser)
            }
        }
        callbacks.endElementNs = { userData, _, _, _ in
            guard let userData else { return }
            let parser = SAXPushParser.instance(userData)
            guard !parser.stopped else { return }
            parser.handler.endElement(in: parser)
        }
        let characters: charactersSAXFunc = { userData, bytes, count in
            guard let userData, let bytes, count > 0 else { return }
            let parser = SAXPushParser.instance(userData)
            guard !parser.stopped else { return }
            parser.handler.characters(UnsafeBufferPointer(start: bytes, count: Int(count)), isCDATA: false, in: parser)
        }
        callbacks.characters = characters
        callbacks.ignorableWhitespace = characters
        callbacks.cdataBlock = { userData, bytes, count in
            guard let userData, let bytes, count > 0 else { return }
            let parser = SAXPushParser.instance(userData)
            guard !parser.stopped else { return }
            parser.handler.characters(UnsafeBufferPointer(start: bytes, count: Int(count)), isCDATA: true, in: parser)
        }
        callbacks.internalSubset = { userData, name, _, _ in
            guard let userData else { return }
            let parser = SAXPushParser.instance(userData)
            guard !parser.stopped else { return }
            parser.handler.foundDTD(name.map { String(cString: $0) } ?? "", in: parser)
        }
        callbacks.serror = { userData, error in
            guard let userData, let error else { return }
            SAXPushParser.instance(userData).parserError(error.pointee)
        }
        return callbacks
    }

    /// libxml2's message on one line, in plainer words where it has its own idiom: its
    /// encoding error runs over two lines ("Input is not proper UTF-8, indicate encoding !" and
    /// then the bytes).
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        if lines.first?.hasPrefix("Input is not proper UTF-8") == true {
            let bytes =
                lines.dropFirst().first.map { " (" + $0.replacingOccurrences(of: "Bytes: ", with: "bytes ") + ")" }
                ?? ""
            return "the text is not UTF-8\(bytes), and the file declares no other encoding"
        }
        return lines.joined(separator: "; ")
    }

    private func parserError(_ error: xmlError) {
        guard !stopped else { return }
        let message = error.message.map { Self.oneLine(String(cString: $0)) } ?? "error \(error.code)"
        let line = error.line > 0 ? Int(error.line) : nil
        let column = error.int2 > 0 ? Int(error.int2) : nil
        if Int(error.code) == Int(XML_ERR_DOCUMENT_EMPTY.rawValue) && blankSoFar {
            stop(
                FeedError(
                    source: source, line: nil, column: nil, kind: .empty,
                    message: "the file is empty; expected an ECB rates document (<gesmes:Envelope>)"))
        } else if terminating {
            stop(
                FeedError(
                    source: source, line: line, column: column, kind: .truncated,
                    message: "the file ends before the document does (truncated?): \(message)"))
        } else {
            stop(
                FeedError(
                    source: source, line: line, column: column, kind: .malformed,
                    message: "not well-formed XML: \(message)"))
        }
    }
}

/// The loaded libxml2's functions.
///
/// `@unchecked Sendable`: the table is written once, before the value is shared, and only read
/// after (libxml2's parser functions are safe to call from any thread, one parser each).
final class LibXML2Library: @unchecked Sendable {
    /// Why libxml2 could not be loaded.
    struct LoadFailure: Error {
        let reason: String
    }

    let api: clibxml2_api
    init(api: clibxml2_api) { self.api = api }
}
