import Foundation

/// The ECB's rules for a rates file, applied to ``SAXPushParser``'s events: the shape of the
/// `Cube` tree, the days, the codes and the rates; and the chunker that hands on whole days.
///
/// The shape it accepts, and nothing else inside the rates:
///
/// ```
/// <gesmes:Envelope>                     (anything but <Cube> in here is the sender's: ignored,
///                                        but a <Cube> or a second <gesmes:Envelope> in it is
///                                        misplaced: an error, never days skipped)
///   <Cube>                              the days' wrapper: no attributes
///     <Cube time="YYYY-MM-DD">          a day: only `time`
///       <Cube currency="USD" rate="1.1355"/>   a rate: only `currency` and `rate`, empty
/// ```
///
/// An element, attribute or text it does not understand inside the wrapper is an error, so that
/// no rate is ever skipped. A day leaves the rules only once its end tag is read and every rate
/// in it was checked: the days handed on before an error are exactly the whole days that end
/// before the error's position.
final class EurofxrefRules: SAXEventHandler {
    /// The most digits a rate may have (after leading zeros of its integer part and trailing
    /// zeros of its fraction): `Decimal` keeps 38 exactly, and a rate is never rounded.
    static let maximumRateDigits = 38

    private let source: String
    private let chunkDays: Int
    let dayRefusal: (@Sendable (CalendarDay) -> String?)?
    private let handler: (RateChunk) throws -> Void

    // What was read
    /// The records of the whole days read and not yet handed on, then the current day's.
    @exclusivity(unchecked) var pending: [RateRecord] = []
    private var pendingDays: [CalendarDay] = []
    /// The line of each day started, by days since 1970 (compact: a history ten times the real
    /// one keeps 71,000 of them).
    var dayLines: [Int32: Int32] = [:]
    /// Every currency seen, as its packed code and its string (made once per currency).
    @exclusivity(unchecked) var currencyTable: [(code: UInt32, text: String)] = []
    private(set) var totalRates = 0
    private(set) var wholeDays = 0
    private var firstDay: CalendarDay?
    private var lastDay: CalendarDay?

    // Where the parser is
    private enum Level {
        /// Inside the root, `<gesmes:Envelope>`.
        case envelope
        /// Inside an element of the sender's, which is ignored with all it holds.
        case ignored
        /// Inside `<gesmes:Sender>`, which holds only `<gesmes:name>` (a rate there would be
        /// lost without a word: it is an error).
        case sender
        /// Inside the `<Cube>` that holds the days.
        case wrapper
        /// Inside a day's `<Cube time=…>`.
        case day
        /// Inside a rate's `<Cube currency=… rate=…>`.
        case rate
    }
    @exclusivity(unchecked) private var levels: [Level] = []
    private(set) var sawRoot = false
    var currentDay: CalendarDay?
    /// Where the current day's records start in `pending`.
    var dayStart = 0
    @exclusivity(unchecked) var dayCodes: [(code: UInt32, line: Int)] = []
    var currentRate: String = ""

    /// libxml2's pointers for the names the rules look for: a name is matched by one compare.
    private(set) var names = InternedNames()
    /// The pointer of the ECB's namespace URI once seen (libxml2 interns it).
    private var ecbNamespacePointer: UnsafePointer<UInt8>?

    /// The error the handler threw, which ended the read.
    private(set) var handlerError: (any Error)?

    static let ecbNamespace = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"
    static let gesmesNamespace = "http://www.gesmes.org/xml/2002-08-01"

    init(_ chunking: DayChunking) {
        source = chunking.source
        chunkDays = chunking.chunkDays
        dayRefusal = chunking.dayRefusal
        handler = chunking.handler
        pending.reserveCapacity(min(chunkDays, 4_096) * 48)
        levels.reserveCapacity(8)
    }

    /// What the read found, once it ended without an error.
    func summary() -> FeedSummary {
        FeedSummary(
            source: source, days: wholeDays, rates: totalRates, currencies: currencyTable.map(\.text).sorted(),
            firstDay: firstDay, lastDay: lastDay)
    }

    /// Hands on the whole days not yet handed on, leaving out the day being read, if any: after
    /// an error, so that what was fully read before it is stored.
    func emitWholeDays() throws {
        if currentDay != nil {
            pending.removeSubrange(dayStart...)
            currentDay = nil
        }
        try emit()
    }

    private func emit() throws {
        guard !pendingDays.isEmpty else { return }
        let chunk = RateChunk(records: pending, days: pendingDays)
        pending.removeAll(keepingCapacity: true)
        pendingDays.removeAll(keepingCapacity: true)
        dayStart = 0
        try handler(chunk)
    }

    // MARK: Messages

    private static func name(_ localname: UnsafePointer<UInt8>, _ namespace: UnsafePointer<UInt8>?) -> String {
        let name = String(cString: localname)
        guard let namespace else { return "<\(name)> (in no namespace)" }
        let uri = String(cString: namespace)
        return uri == ecbNamespace ? "<\(name)>" : "<\(name)> (of namespace \(uri))"
    }

    static func attributeText(_ attribute: SAXAttribute) -> String {
        "\(attribute.qualifiedName)=\(RateText.quoted(attribute.value))"
    }

    // MARK: SAX events

    /// Whether an element is `localname` of the gesmes namespace.
    private static func isGesmes(
        _ localname: UnsafePointer<UInt8>, _ namespace: UnsafePointer<UInt8>?, _ expected: String
    ) -> Bool {
        guard let namespace else { return false }
        return strcmp(UnsafeRawPointer(localname).assumingMemoryBound(to: CChar.self), expected) == 0
            && strcmp(UnsafeRawPointer(namespace).assumingMemoryBound(to: CChar.self), gesmesNamespace) == 0
    }

    private func isECB(_ namespace: UnsafePointer<UInt8>?) -> Bool {
        guard let namespace else { return false }
        if namespace == ecbNamespacePointer { return true }
        guard strcmp(UnsafeRawPointer(namespace).assumingMemoryBound(to: CChar.self), Self.ecbNamespace) == 0 else {
            return false
        }
        ecbNamespacePointer = namespace
        return true
    }

    func startElement(
        _ localname: UnsafePointer<UInt8>, namespace: UnsafePointer<UInt8>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, in parser: SAXPushParser
    ) {
        do {
            try enter(
                localname, namespace: namespace, attributeCount: attributeCount, attributes: attributes, in: parser)
        } catch {
            let (line, column) = parser.position(of: error.position)
            parser.stop(FeedError(source: source, line: line, column: column, kind: error.kind, message: error.message))
        }
    }

    /// Applies the rules to an element's start; a violation ends the read at its position.
    private func enter(
        _ localname: UnsafePointer<UInt8>, namespace: UnsafePointer<UInt8>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, in parser: SAXPushParser
    ) throws(RuleViolation) {
        guard sawRoot, let level = levels.last else {
            try root(localname, namespace: namespace, in: parser)
            return
        }
        let isCube = localname == names.cube && isECB(namespace)
        // The document has one envelope, its root; a second one (nested anywhere) would have
        // its days skipped with the content it sits in.
        if Self.isGesmes(localname, namespace, "Envelope") {
            levels.append(.ignored)
            throw RuleViolation(
                .structure, at: parser.startOfCurrentTag(),
                "misplaced <gesmes:Envelope>: the document's root is its one envelope")
        }
        switch level {
        case .ignored:
            levels.append(.ignored)
            // Rates inside an element of the sender's would be skipped without a word.
            if isCube {
                throw RuleViolation(
                    .structure, at: parser.startOfCurrentTag(),
                    "misplaced <Cube> inside an element ecbrates ignores (the sender's); the <Cube> that holds the days belongs directly in <gesmes:Envelope>"
                )
            }
        case .sender:
            levels.append(.ignored)
            guard Self.isGesmes(localname, namespace, "name") else {
                throw RuleViolation(
                    .structure, at: parser.startOfCurrentTag(),
                    "unexpected \(Self.name(localname, namespace)) in <gesmes:Sender>; expected only <gesmes:name> there"
                )
            }
        case .envelope:
            guard isCube else {
                levels.append(Self.isGesmes(localname, namespace, "Sender") ? .sender : .ignored)
                return
            }
            levels.append(.wrapper)
            guard attributeCount == 0 else {
                let first = SAXAttribute(attributes, 0)
                if first.localname == names.time && first.namespace == nil {
                    throw RuleViolation(
                        .structure, at: parser.startOfAttributeName(valueAt: parser.place(of: first.value)),
                        "a day Cube (\(RateText.quoted(first.value))) directly in <gesmes:Envelope>; expected it inside the <Cube> that holds the days"
                    )
                } else {
                    throw RuleViolation(
                        .structure, at: parser.startOfAttributeName(valueAt: parser.place(of: first.value)),
                        "unexpected attribute \(Self.attributeText(first)) on the <Cube> that holds the days; expected none"
                    )
                }
            }
        case .wrapper:
            levels.append(.day)
            guard isCube else {
                throw RuleViolation(
                    .structure, at: parser.startOfCurrentTag(),
                    "unexpected \(Self.name(localname, namespace)) among the days; expected a day <Cube time=\"YYYY-MM-DD\">"
                )
            }
            try startDay(attributeCount: attributeCount, attributes: attributes, in: parser)
        case .day:
            levels.append(.rate)
            guard isCube else {
                throw RuleViolation(
                    .structure, at: parser.startOfCurrentTag(),
                    "unexpected \(Self.name(localname, namespace)) in the day Cube of \(currentDay.map { "\($0)" } ?? "?"); expected a rate <Cube currency=\"XXX\" rate=\"…\"/>"
                )
            }
            try addRate(attributeCount: attributeCount, attributes: attributes, in: parser)
        case .rate:
            levels.append(.ignored)
            throw RuleViolation(
                .structure, at: parser.startOfCurrentTag(),
                "unexpected \(Self.name(localname, namespace)) inside the \(currentRate) Cube of \(currentDay.map { "\($0)" } ?? "?"); a rate Cube is empty"
            )
        }
    }

    private func root(
        _ localname: UnsafePointer<UInt8>, namespace: UnsafePointer<UInt8>?, in parser: SAXPushParser
    )
        throws(RuleViolation)
    {
        sawRoot = true
        names = InternedNames(parser)
        levels.append(.envelope)
        func matches(_ pointer: UnsafePointer<UInt8>?, _ text: String) -> Bool {
            guard let pointer else { return false }
            return strcmp(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self), text) == 0
        }
        guard matches(localname, "Envelope"), matches(namespace, Self.gesmesNamespace) else {
            let name = String(cString: localname)
            let kind = name.lowercased() == "html" ? "an HTML page" : "not an ECB rates document"
            throw RuleViolation(
                .notRatesDocument, at: parser.startOfCurrentTag(),
                "the root element is <\(name)>, not <gesmes:Envelope>: \(kind)")
        }
    }

    func endElement(in parser: SAXPushParser) {
        guard let level = levels.popLast() else { return }
        guard level == .day, let day = currentDay else { return }
        currentDay = nil
        let rates = pending.count - dayStart
        if rates == 0 {
            pending.removeSubrange(dayStart...)
            // The tag that ends the day without a rate in it: `</Cube>`, or `<Cube time=…/>`.
            let (line, column) = parser.position(of: parser.startOfCurrentTag())
            parser.stop(
                FeedError(
                    source: source, line: line, column: column, kind: .structure,
                    message: "day \(day) has no rates"))
            return
        }
        totalRates += rates
        wholeDays += 1
        pendingDays.append(day)
        dayStart = pending.count
        if firstDay.map({ day < $0 }) ?? true { firstDay = day }
        if lastDay.map({ day > $0 }) ?? true { lastDay = day }
        if pendingDays.count >= chunkDays {
            do {
                try emit()
            } catch {
                handlerError = error
                parser.halt()
            }
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>, isCDATA: Bool, in parser: SAXPushParser) {
        guard let level = levels.last, level == .wrapper || level == .day || level == .rate else { return }
        guard let start = bytes.firstIndex(where: { !SAXPushParser.isBlankByte($0) }) else { return }
        let text = UnsafeBufferPointer(rebasing: bytes[start...])
        let place: String
        switch level {
        case .day: place = "in the day Cube of \(currentDay.map { "\($0)" } ?? "?"); expected only rate Cubes"
        case .rate:
            place = "inside the \(currentRate) Cube of \(currentDay.map { "\($0)" } ?? "?"); a rate Cube is empty"
        default: place = "among the days; expected only day Cubes"
        }
        // Where it is written, and as written (libxml2 may pass a reference's replacement, or
        // text up to its first character that is not ASCII, first). Text passed in place is
        // placed from its own end, where libxml2's line and column stand; a CDATA section's and
        // a copy's from the parser's position, which they agree with.
        let written = parser.textStart(bytes, offset: start)
        let inPlace = bytes.baseAddress.map { written == $0 + start } ?? false
        let (line, column) =
            inPlace && !isCDATA ? parser.position(ofText: bytes, offset: start) : parser.position(of: written)
        let quoted = written.map { parser.writtenText(from: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? text
        parser.stop(
            FeedError(
                source: source, line: line, column: column, kind: .structure,
                message: "unexpected text \(RateText.quoted(quoted)) \(place)"))
    }

    func foundDTD(_ name: String, in parser: SAXPushParser) {
        let (line, column) = parser.position(of: nil)
        parser.stop(
            FeedError(
                source: source, line: line, column: column, kind: .notRatesDocument,
                message:
                    "the document declares a DTD (<!DOCTYPE \(name)…>); ECB rate files have none, and entities are never read"
            ))
    }
}
