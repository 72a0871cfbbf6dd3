import Foundation

/// The ECB's rules for a rates file, applied to ``SAXPushParser``'s events: the shape of the
/// `Cube` tree, the days, the codes and the rates; and the chunker that hands on whole days.
///
/// The shape it accepts, and nothing else inside the rates:
///
/// ```
/// <gesmes:Envelope>                     (anything but <Cube> in here is the sender's: ignored)
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
    private let dayRefusal: (@Sendable (CalendarDay) -> String?)?
    private let handler: (RateChunk) throws -> Void

    // What was read
    /// The records of the whole days read and not yet handed on, then the current day's.
    @exclusivity(unchecked) private var pending: [RateRecord] = []
    private var pendingDays: [CalendarDay] = []
    /// The line of each day started, by days since 1970 (compact: a history ten times the real
    /// one keeps 71,000 of them).
    private var dayLines: [Int32: Int32] = [:]
    /// Every currency seen, as its packed code and its string (made once per currency).
    @exclusivity(unchecked) private var currencyTable: [(code: UInt32, text: String)] = []
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
        /// Inside the `<Cube>` that holds the days.
        case wrapper
        /// Inside a day's `<Cube time=…>`.
        case day
        /// Inside a rate's `<Cube currency=… rate=…>`.
        case rate
    }
    @exclusivity(unchecked) private var levels: [Level] = []
    private(set) var sawRoot = false
    private var currentDay: CalendarDay?
    /// Where the current day's records start in `pending`.
    private var dayStart = 0
    private var dayLine = 0
    private var dayColumn: Int?
    @exclusivity(unchecked) private var dayCodes: [(code: UInt32, line: Int)] = []
    private var currentRate: String = ""

    /// libxml2's pointers for the names the rules look for: a name is matched by one compare.
    private var names = InternedNames()
    /// The pointer of the ECB's namespace URI once seen (libxml2 interns it).
    private var ecbNamespacePointer: UnsafePointer<UInt8>?

    /// The error the handler threw, which ended the read.
    private(set) var handlerError: (any Error)?

    static let ecbNamespace = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"
    static let gesmesNamespace = "http://www.gesmes.org/xml/2002-08-01"

    init(
        source: String, chunkDays: Int, dayRefusal: (@Sendable (CalendarDay) -> String?)?,
        handler: @escaping (RateChunk) throws -> Void
    ) {
        self.source = source
        self.chunkDays = chunkDays
        self.dayRefusal = dayRefusal
        self.handler = handler
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

    private func fail(
        _ kind: FeedError.Kind, at pointer: UnsafePointer<UInt8>?, _ message: String, in parser: SAXPushParser
    ) {
        let (line, column) = parser.position(of: pointer)
        parser.stop(FeedError(source: source, line: line, column: column, kind: kind, message: message))
    }

    private static func name(_ localname: UnsafePointer<UInt8>, _ namespace: UnsafePointer<UInt8>?) -> String {
        let name = String(cString: localname)
        guard let namespace else { return "<\(name)> (in no namespace)" }
        let uri = String(cString: namespace)
        return uri == ecbNamespace ? "<\(name)>" : "<\(name)> (of namespace \(uri))"
    }

    private static func attributeText(_ attribute: SAXAttribute) -> String {
        "\(attribute.qualifiedName)=\(RateText.quoted(attribute.value))"
    }

    // MARK: SAX events

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
        guard sawRoot, let level = levels.last else {
            root(localname, namespace: namespace, in: parser)
            return
        }
        let isCube = localname == names.cube && isECB(namespace)
        switch level {
        case .ignored:
            levels.append(.ignored)
        case .envelope:
            guard isCube else {
                levels.append(.ignored)
                return
            }
            levels.append(.wrapper)
            guard attributeCount == 0 else {
                let first = SAXAttribute(attributes, 0)
                if first.localname == names.time && first.namespace == nil {
                    fail(
                        .structure, at: first.value.baseAddress,
                        "a day Cube (\(RateText.quoted(first.value))) directly in <gesmes:Envelope>; expected it inside the <Cube> that holds the days",
                        in: parser)
                } else {
                    fail(
                        .structure, at: first.value.baseAddress,
                        "unexpected attribute \(Self.attributeText(first)) on the <Cube> that holds the days; expected none",
                        in: parser)
                }
                return
            }
        case .wrapper:
            levels.append(.day)
            guard isCube else {
                fail(
                    .structure, at: parser.startOfCurrentTag(),
                    "unexpected \(Self.name(localname, namespace)) among the days; expected a day <Cube time=\"YYYY-MM-DD\">",
                    in: parser)
                return
            }
            startDay(attributeCount: attributeCount, attributes: attributes, in: parser)
        case .day:
            levels.append(.rate)
            guard isCube else {
                fail(
                    .structure, at: parser.startOfCurrentTag(),
                    "unexpected \(Self.name(localname, namespace)) in the day Cube of \(currentDay.map { "\($0)" } ?? "?"); expected a rate <Cube currency=\"XXX\" rate=\"…\"/>",
                    in: parser)
                return
            }
            addRate(attributeCount: attributeCount, attributes: attributes, in: parser)
        case .rate:
            levels.append(.ignored)
            fail(
                .structure, at: parser.startOfCurrentTag(),
                "unexpected \(Self.name(localname, namespace)) inside the \(currentRate) Cube of \(currentDay.map { "\($0)" } ?? "?"); a rate Cube is empty",
                in: parser)
        }
    }

    private func root(_ localname: UnsafePointer<UInt8>, namespace: UnsafePointer<UInt8>?, in parser: SAXPushParser) {
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
            fail(
                .notRatesDocument, at: parser.startOfCurrentTag(),
                "the root element is <\(name)>, not <gesmes:Envelope>: \(kind)", in: parser)
            return
        }
    }

    private func startDay(
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, in parser: SAXPushParser
    ) {
        var time: SAXAttribute?
        for index in 0..<attributeCount {
            let attribute = SAXAttribute(attributes, index)
            if attribute.localname == names.time && attribute.namespace == nil && time == nil {
                time = attribute
            } else if attribute.localname == names.currency && attribute.namespace == nil {
                let what = RateText.quoted(attribute.value)
                fail(
                    .structure, at: attribute.value.baseAddress,
                    "a rate Cube (\(what)) outside a day Cube; expected it inside <Cube time=\"YYYY-MM-DD\">",
                    in: parser)
                return
            } else {
                fail(
                    .structure, at: attribute.value.baseAddress,
                    "unexpected attribute \(Self.attributeText(attribute)) on a day Cube; expected only time=\"YYYY-MM-DD\"",
                    in: parser)
                return
            }
        }
        guard let time else {
            fail(
                .structure, at: parser.startOfCurrentTag(),
                "a Cube among the days has no time attribute; expected <Cube time=\"YYYY-MM-DD\">",
                in: parser)
            return
        }
        guard let day = CalendarDay(utf8: time.value) else {
            fail(
                .invalidValue, at: time.value.baseAddress,
                "day \(RateText.quoted(time.value)) is not a calendar date (expected YYYY-MM-DD)",
                in: parser)
            return
        }
        if let reason = dayRefusal?(day) {
            fail(.invalidValue, at: time.value.baseAddress, "day \(day) \(reason)", in: parser)
            return
        }
        let (line, column) = parser.position(of: time.value.baseAddress)
        let dayKey = Int32(day.daysSince1970)
        if let first = dayLines[dayKey] {
            fail(
                .duplicate, at: time.value.baseAddress, "day \(day) appears twice (first at line \(first))", in: parser)
            return
        }
        dayLines[dayKey] = Int32(clamping: line)
        currentDay = day
        dayStart = pending.count
        dayLine = line
        dayColumn = column
        dayCodes.removeAll(keepingCapacity: true)
    }

    private func addRate(
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, in parser: SAXPushParser
    ) {
        guard let day = currentDay else { return }
        var currency: SAXAttribute?, rate: SAXAttribute?
        for index in 0..<attributeCount {
            let attribute = SAXAttribute(attributes, index)
            if attribute.localname == names.currency && attribute.namespace == nil && currency == nil {
                currency = attribute
            } else if attribute.localname == names.rate && attribute.namespace == nil && rate == nil {
                rate = attribute
            } else if attribute.localname == names.time && attribute.namespace == nil {
                fail(
                    .structure, at: attribute.value.baseAddress,
                    "a day Cube inside the day Cube of \(day); expected </Cube> first", in: parser)
                return
            } else {
                let whose = currency.map { "the \(String(decoding: $0.value, as: UTF8.self)) Cube" } ?? "a rate Cube"
                fail(
                    .structure, at: attribute.value.baseAddress,
                    "unexpected attribute \(Self.attributeText(attribute)) on \(whose) of \(day); expected only currency and rate",
                    in: parser)
                return
            }
        }
        guard let currency else {
            fail(
                .structure, at: rate?.value.baseAddress ?? parser.startOfCurrentTag(),
                "a rate Cube on \(day) has no currency attribute (expected currency=\"XXX\")", in: parser)
            return
        }
        guard RateText.isCurrencyCode(currency.value) else {
            fail(
                .invalidValue, at: currency.value.baseAddress,
                "currency \(RateText.quoted(currency.value)) on \(day) is not a three-letter upper-case code (like USD)",
                in: parser)
            return
        }
        let packed = RateText.packed(currency.value)
        let code = interned(packed, currency.value)
        currentRate = code
        guard let rate else {
            fail(
                .structure, at: currency.value.baseAddress,
                "the \(code) Cube on \(day) has no rate attribute (expected rate=\"1.2345\")",
                in: parser)
            return
        }
        if let earlier = dayCodes.first(where: { $0.code == packed }) {
            fail(
                .duplicate, at: currency.value.baseAddress,
                "\(code) appears twice on \(day) (first at line \(earlier.line))", in: parser)
            return
        }
        let value: Decimal
        switch RateText.decimal(rate.value, maximumDigits: Self.maximumRateDigits) {
        case .value(let decimal):
            value = decimal
        case .tooManyDigits(let digits):
            fail(
                .invalidValue, at: rate.value.baseAddress,
                "rate \(RateText.quoted(rate.value)) for \(code) on \(day) has \(digits) digits; at most \(Self.maximumRateDigits) are kept exactly, and a rate is never rounded",
                in: parser)
            return
        case .notDecimal:
            let negative =
                rate.value.first == UInt8(ascii: "-")
                && RateText.decimal(UnsafeBufferPointer(rebasing: rate.value.dropFirst()), maximumDigits: .max).isValue
            fail(
                .invalidValue, at: rate.value.baseAddress,
                "rate \(RateText.quoted(rate.value)) for \(code) on \(day) is not \(negative ? "positive" : "a decimal number")",
                in: parser)
            return
        }
        guard value > 0 else {
            fail(
                .invalidValue, at: rate.value.baseAddress,
                "rate \(RateText.quoted(rate.value)) for \(code) on \(day) is not positive", in: parser)
            return
        }
        dayCodes.append((packed, parser.position(of: nil).line))
        pending.append(RateRecord(day: day, currency: code, rate: value))
    }

    /// The string of a currency code, made once per currency the file holds.
    private func interned(_ packed: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        for entry in currencyTable where entry.code == packed { return entry.text }
        let text = String(decoding: bytes, as: UTF8.self)
        currencyTable.append((packed, text))
        return text
    }

    func endElement(in parser: SAXPushParser) {
        guard let level = levels.popLast() else { return }
        guard level == .day, let day = currentDay else { return }
        currentDay = nil
        let rates = pending.count - dayStart
        if rates == 0 {
            pending.removeSubrange(dayStart...)
            parser.stop(
                FeedError(
                    source: source, line: dayLine, column: dayColumn, kind: .structure,
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

    func characters(_ bytes: UnsafeBufferPointer<UInt8>, in parser: SAXPushParser) {
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
        // The text ends where the parser stands (at the `<` after it): its start is that many
        // bytes back, whether libxml2 passed the bytes in place or as a copy.
        let (line, column) = parser.position(bytesBeforeCurrent: text.count)
        parser.stop(
            FeedError(
                source: source, line: line, column: column, kind: .structure,
                message: "unexpected text \(RateText.quoted(text)) \(place)"))
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

/// One attribute of the element being started, as libxml2's SAX2 gives it.
struct SAXAttribute {
    let localname: UnsafePointer<UInt8>?
    let prefix: UnsafePointer<UInt8>?
    let namespace: UnsafePointer<UInt8>?
    let value: UnsafeBufferPointer<UInt8>

    /// The attribute at `index` of libxml2's array of five pointers per attribute.
    init(_ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, _ index: Int) {
        localname = attributes[index * 5]
        prefix = attributes[index * 5 + 1]
        namespace = attributes[index * 5 + 2]
        if let start = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] {
            value = UnsafeBufferPointer(start: start, count: end - start)
        } else {
            value = UnsafeBufferPointer(start: nil, count: 0)
        }
    }

    /// `prefix:name`, or `name`.
    var qualifiedName: String {
        let name = localname.map { String(cString: $0) } ?? ""
        return prefix.map { String(cString: $0) + ":" + name } ?? name
    }
}

/// The pointers libxml2's name dictionary gives the names the rules match.
private struct InternedNames {
    var cube: UnsafePointer<UInt8>?
    var time: UnsafePointer<UInt8>?
    var currency: UnsafePointer<UInt8>?
    var rate: UnsafePointer<UInt8>?

    init() {}

    init(_ parser: SAXPushParser) {
        cube = parser.intern("Cube")
        time = parser.intern("time")
        currency = parser.intern("currency")
        rate = parser.intern("rate")
    }
}
