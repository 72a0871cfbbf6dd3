import Foundation

extension EurofxrefRules {
    func startDay(
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, in parser: SAXPushParser
    ) throws(RuleViolation) {
        var time: SAXAttribute?
        for index in 0..<attributeCount {
            let attribute = SAXAttribute(attributes, index)
            if attribute.localname == names.time && attribute.namespace == nil && time == nil {
                time = attribute
            } else if attribute.localname == names.currency && attribute.namespace == nil {
                let what = RateText.quoted(attribute.value)
                throw RuleViolation(
                    .structure, at: parser.startOfAttributeName(valueAt: parser.place(of: attribute.value)),
                    "a rate Cube (\(what)) outside a day Cube; expected it inside <Cube time=\"YYYY-MM-DD\">")
            } else {
                throw RuleViolation(
                    .structure, at: parser.startOfAttributeName(valueAt: parser.place(of: attribute.value)),
                    "unexpected attribute \(Self.attributeText(attribute)) on a day Cube; expected only time=\"YYYY-MM-DD\""
                )
            }
        }
        guard let time else {
            throw RuleViolation(
                .structure, at: parser.startOfCurrentTag(),
                "a Cube among the days has no time attribute; expected <Cube time=\"YYYY-MM-DD\">")
        }
        guard let day = CalendarDay(utf8: time.value) else {
            throw RuleViolation(
                .invalidValue, at: parser.place(of: time.value),
                "day \(RateText.quoted(time.value)) is not a calendar date (expected YYYY-MM-DD)")
        }
        if let reason = dayRefusal?(day) {
            throw RuleViolation(
                .invalidValue, at: parser.place(of: time.value),
                "day \(day) \(reason)")
        }
        let line = parser.position(of: parser.place(of: time.value)).line
        let dayKey = Int32(day.daysSince1970)
        if let first = dayLines[dayKey] {
            throw RuleViolation(
                .duplicate, at: parser.place(of: time.value),
                "day \(day) appears twice (first at line \(first))")
        }
        dayLines[dayKey] = Int32(clamping: line)
        currentDay = day
        dayStart = pending.count
        dayCodes.removeAll(keepingCapacity: true)
    }

    func addRate(
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, in parser: SAXPushParser
    ) throws(RuleViolation) {
        guard let day = currentDay else { return }
        var currency: SAXAttribute?, rate: SAXAttribute?
        for index in 0..<attributeCount {
            let attribute = SAXAttribute(attributes, index)
            if attribute.localname == names.currency && attribute.namespace == nil && currency == nil {
                currency = attribute
            } else if attribute.localname == names.rate && attribute.namespace == nil && rate == nil {
                rate = attribute
            } else if attribute.localname == names.time && attribute.namespace == nil {
                throw RuleViolation(
                    .structure, at: parser.startOfAttributeName(valueAt: parser.place(of: attribute.value)),
                    "a day Cube inside the day Cube of \(day); expected </Cube> first")
            } else {
                let whose = currency.map { "the \(String(decoding: $0.value, as: UTF8.self)) Cube" } ?? "a rate Cube"
                throw RuleViolation(
                    .structure, at: parser.startOfAttributeName(valueAt: parser.place(of: attribute.value)),
                    "unexpected attribute \(Self.attributeText(attribute)) on \(whose) of \(day); expected only currency and rate"
                )
            }
        }
        guard let currency else {
            throw RuleViolation(
                .structure, at: parser.startOfCurrentTag(),
                "a rate Cube on \(day) has no currency attribute (expected currency=\"XXX\")")
        }
        guard let rate else {
            throw RuleViolation(
                .structure, at: parser.startOfCurrentTag(),
                "the \(RateText.quoted(currency.value)) Cube on \(day) has no rate attribute (expected rate=\"1.2345\")"
            )
        }
        guard RateText.isCurrencyCode(currency.value) else {
            throw RuleViolation(
                .invalidValue, at: parser.place(of: currency.value),
                "currency \(RateText.quoted(currency.value)) on \(day) is not a three-letter upper-case code (like USD)"
            )
        }
        let packed = RateText.packed(currency.value)
        let code = interned(packed, currency.value)
        currentRate = code
        if code == "EUR" {
            throw RuleViolation(
                .invalidValue, at: parser.place(of: currency.value),
                "a rate for EUR on \(day): these are euro reference rates, each the price of one euro, so the euro has none"
            )
        }
        if let earlier = dayCodes.first(where: { $0.code == packed }) {
            throw RuleViolation(
                .duplicate, at: parser.place(of: currency.value),
                "\(code) appears twice on \(day) (first at line \(earlier.line))")
        }
        let value: Decimal
        switch RateText.decimal(rate.value, maximumDigits: Self.maximumRateDigits) {
        case .value(let decimal):
            value = decimal
        case .tooManyDigits(let digits):
            throw RuleViolation(
                .invalidValue, at: parser.place(of: rate.value),
                "rate \(RateText.quoted(rate.value)) for \(code) on \(day) has \(digits) digits; at most \(Self.maximumRateDigits) are kept exactly, and a rate is never rounded"
            )
        case .notDecimal:
            let negative =
                rate.value.first == UInt8(ascii: "-")
                && RateText.decimal(UnsafeBufferPointer(rebasing: rate.value.dropFirst()), maximumDigits: .max).isValue
            throw RuleViolation(
                .invalidValue, at: parser.place(of: rate.value),
                "rate \(RateText.quoted(rate.value)) for \(code) on \(day) is not \(negative ? "positive" : "a decimal number")"
            )
        }
        guard value > 0 else {
            throw RuleViolation(
                .invalidValue, at: parser.place(of: rate.value),
                "rate \(RateText.quoted(rate.value)) for \(code) on \(day) is not positive")
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
}
