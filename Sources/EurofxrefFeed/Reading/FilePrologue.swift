import Foundation

/// The checks made on a file's first bytes, before any is parsed: nothing at all, an HTML page,
/// text that is not XML, and bytes in another encoding than the one declared (or than the
/// UTF-8 the ECB publishes).
enum FilePrologue {
    /// Throws a ``FeedError`` when the first block of a source (`bytes`; all of it when
    /// `isWholeFile`) cannot begin an ECB rates document.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, isWholeFile: Bool, source: String) throws {
        try checkEncoding(bytes, source: source)
        var text = bytes
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = UnsafeBufferPointer(rebasing: text[3...]) }  // a UTF-8 byte-order mark
        if SAXPushParser.isBlank(text) && isWholeFile {
            throw FeedError(
                source: source, line: nil, column: nil, kind: .empty,
                message: "the file is empty; expected an ECB rates document (<gesmes:Envelope>)")
        }
        if looksLikeHTML(text) {
            throw FeedError(
                source: source, line: 1, column: 1, kind: .notRatesDocument,
                message: "this is an HTML page, not an ECB rates document (expected <gesmes:Envelope>)")
        }
        if let start = text.firstIndex(where: { !SAXPushParser.isBlankByte($0) }), text[start] != UInt8(ascii: "<") {
            let line = text[..<start].filter { $0 == 0x0A }.count + 1
            let lineStart = text[..<start].lastIndex(of: 0x0A).map { $0 + 1 } ?? text.startIndex
            let rest = text[start...].prefix { $0 != 0x0A && $0 != 0x0D }
            let begins = RateText.quoted(UnsafeBufferPointer(rebasing: rest))
            // A line of fields is some other CSV (an invoice list, a bank's export): named so.
            // (Three fields or more, so that a sentence with a comma is not one.)
            let looksLikeCSV = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09].contains { separator in
                rest.filter { $0 == separator }.count >= 2
            }
            throw FeedError(
                source: source, line: line, column: start - lineStart + 1, kind: .notRatesDocument,
                message: looksLikeCSV
                    ? "this is a CSV file, but not one of the ECB's (it begins \(begins)); expected the ECB's CSV (a header Date,USD,JPY,…) or its XML (<gesmes:Envelope>)"
                    : "this is not XML (it begins \(begins)); expected an ECB rates document (<gesmes:Envelope>)")
        }
    }

    static func looksLikeHTML(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.firstIndex(where: { !SAXPushParser.isBlankByte($0) }) else { return false }
        let head = String(decoding: bytes[start...].prefix(64), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    // MARK: Encoding

    /// What the first bytes say a file's encoding family is.
    enum ByteEncoding: String {
        case utf8 = "UTF-8"
        case utf16LittleEndian = "UTF-16 (little-endian)"
        case utf16BigEndian = "UTF-16 (big-endian)"
        case utf32LittleEndian = "UTF-32 (little-endian)"
        case utf32BigEndian = "UTF-32 (big-endian)"

        /// How many bytes a character of the declaration (ASCII) takes, and where its byte is.
        var unit: (size: Int, offset: Int) {
            switch self {
            case .utf8: return (1, 0)
            case .utf16LittleEndian: return (2, 0)
            case .utf16BigEndian: return (2, 1)
            case .utf32LittleEndian: return (4, 0)
            case .utf32BigEndian: return (4, 3)
            }
        }
    }

    /// The encoding family of `bytes` from its byte-order mark or the zero bytes around its
    /// first `<`, as XML's appendix F detects it.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> ByteEncoding {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0xFF, 0xFE, 0x00, 0x00), (0x3C, 0x00, 0x00, 0x00): return .utf32LittleEndian
        case (0x00, 0x00, 0xFE, 0xFF), (0x00, 0x00, 0x00, 0x3C): return .utf32BigEndian
        case (0xFF, 0xFE, _, _): return .utf16LittleEndian
        case (0xFE, 0xFF, _, _): return .utf16BigEndian
        case (_, 0x00, _, 0x00) where head[0] != 0: return .utf16LittleEndian
        case (0x00, _, 0x00, _) where head[1] != 0: return .utf16BigEndian
        default: return .utf8
        }
    }

    /// The `encoding` an XML declaration at the start of the text names, with the column of its
    /// value's first character, read as ASCII from the bytes of `encoding`.
    static func declaredEncoding(
        _ bytes: UnsafeBufferPointer<UInt8>, as encoding: ByteEncoding
    ) -> (name: String, column: Int)? {
        let (size, offset) = encoding.unit
        let marks: [[UInt8]] = [
            [0xEF, 0xBB, 0xBF], [0xFF, 0xFE, 0x00, 0x00], [0x00, 0x00, 0xFE, 0xFF], [0xFF, 0xFE], [0xFE, 0xFF],
        ]
        let mark = marks.first { bytes.starts(with: $0) && ($0.count == 3) == (encoding == .utf8) }?.count ?? 0
        var characters: [UInt8] = []
        var index = mark + offset
        while index < bytes.count && characters.count < 256 {
            characters.append(bytes[index])
            if characters.count >= 2 && characters.suffix(2) == [UInt8(ascii: "?"), UInt8(ascii: ">")] { break }
            index += size
        }
        let text = String(decoding: characters, as: UTF8.self)
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return nil }
        let declaration = text[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "\t" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let name = rest.dropFirst().prefix { $0 != quote }
        let column = text.distance(from: text.startIndex, to: name.startIndex) + 1
        return (String(name), column)
    }

    /// Refuses bytes in another encoding than UTF-8, and a declaration of another encoding: the
    /// ECB publishes UTF-8, and a file whose declaration and bytes disagree would be misread.
    static func checkEncoding(_ bytes: UnsafeBufferPointer<UInt8>, source: String) throws {
        let family = detect(bytes)
        let declared = declaredEncoding(bytes, as: family)
        let declaredText = declared.map { "declares encoding=\"\($0.name)\"" } ?? "declares no encoding"
        if family != .utf8 {
            let agrees =
                declared.map {
                    $0.name.uppercased().hasPrefix(
                        family == .utf16BigEndian || family == .utf16LittleEndian ? "UTF-16" : "UTF-32")
                }
                ?? true
            let message =
                agrees
                ? "the file is \(family.rawValue); ecbrates reads the UTF-8 the ECB publishes"
                : "the file's bytes are \(family.rawValue) but it \(declaredText); ecbrates reads the UTF-8 the ECB publishes"
            throw FeedError(
                source: source, line: 1, column: declared?.column ?? 1, kind: .notRatesDocument, message: message)
        }
        if let declared, declared.name.uppercased() != "UTF-8" {
            throw FeedError(
                source: source, line: 1, column: declared.column, kind: .notRatesDocument,
                message:
                    "the file \(declaredText); ecbrates reads the UTF-8 the ECB publishes, and reading it as another would misread it"
            )
        }
    }
}
