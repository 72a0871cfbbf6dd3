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
    /// Character data (including white space between elements).
    func characters(_ bytes: UnsafeBufferPointer<UInt8>, in parser: SAXPushParser)
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

    /// The line and column of a byte the parser has just read (an attribute value), worked out
    /// from libxml2's current position; the current position when the byte is not in its buffer.
    func position(of pointer: UnsafePointer<UInt8>?) -> (line: Int, column: Int?) {
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
        return (line - newlines, (pointer - lineStart) + 1)
    }

    /// The line and column of the byte `count` bytes before the parser's current position (the
    /// start of character data it has just read, which libxml2 may hand on as a copy).
    func position(bytesBeforeCurrent count: Int) -> (line: Int, column: Int?) {
        guard let input = context?.pointee.input?.pointee, let current = input.cur, let base = input.base,
            current - count >= base
        else { return position(of: nil) }
        return position(of: current - count)
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
            parser.handler.characters(UnsafeBufferPointer(start: bytes, count: Int(count)), in: parser)
        }
        callbacks.characters = characters
        callbacks.ignorableWhitespace = characters
        callbacks.cdataBlock = characters
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
