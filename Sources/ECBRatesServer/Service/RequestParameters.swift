import ECBRates
import EurofxrefFeed
import Foundation

/// A request's query parameters, read by name with their type, each refused with a 400 that
/// names it, its value and what was expected; a parameter no endpoint reads is refused too
/// (a typo such as `symbol=USD` never silently widens an answer).
struct RequestParameters {
    private let request: HTTPRequest
    private var read: Set<String> = []
    /// The names read, each with its aliases: one parameter may be given once.
    private var groups: [[String]] = []

    init(_ request: HTTPRequest) { self.request = request }

    /// The raw value of the first of `names` given (aliases: `base` or `from`).
    mutating func text(_ names: String...) -> String? {
        for name in names {
            read.insert(name)
        }
        if !groups.contains(names) { groups.append(names) }
        for name in names { if let value = request.parameter(name) { return value } }
        return nil
    }

    /// A day (`YYYY-MM-DD`).
    mutating func day(_ name: String) throws -> CalendarDay? {
        guard let value = text(name) else { return nil }
        guard let day = CalendarDay(value) else {
            throw ServiceError.badParameter(name, value, expected: "a date (YYYY-MM-DD)")
        }
        return day
    }

    /// A currency code (three letters; upper-cased), after the first of `names` given.
    mutating func currency(_ names: String...) throws -> String? {
        if !groups.contains(names) { groups.append(names) }
        var value: String?
        for name in names {
            read.insert(name)
            if value == nil, let given = request.parameter(name) { value = given }
        }
        guard let value else { return nil }
        let code = value.uppercased()
        guard QuestionField.isCurrencyCode(code) else {
            throw ServiceError.badParameter(names[0], value, expected: "a three-letter currency code")
        }
        return code
    }

    /// A comma-separated list of currency codes (upper-cased), after the first of `names` given.
    mutating func currencies(_ names: String...) throws -> [String]? {
        if !groups.contains(names) { groups.append(names) }
        var value: String?
        for name in names {
            read.insert(name)
            if value == nil, let given = request.parameter(name) { value = given }
        }
        guard let value else { return nil }
        let codes = value.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).uppercased()
        }
        for code in codes where !QuestionField.isCurrencyCode(code) {
            throw ServiceError.badParameter(names[0], value, expected: "currency codes, comma-separated (USD,GBP)")
        }
        if let twice = codes.first(where: { code in codes.filter { $0 == code }.count > 1 }) {
            throw ServiceError(
                status: 400, "parameter \(names[0])=\(value) lists \(twice) twice", code: "bad-parameter")
        }
        return codes
    }

    /// A decimal amount, exactly as written (at most the digits a conversion keeps exact).
    mutating func amount(_ name: String) throws -> Decimal? {
        guard let value = text(name) else { return nil }
        switch DecimalMath.amount(value) {
        case .value(let amount): return amount
        case .notANumber:
            throw ServiceError.badParameter(name, value, expected: "a number like 100, 12.50 or -3.10")
        case .tooManyDigits:
            throw ServiceError.badParameter(
                name, value, expected: "an amount of at most \(DecimalMath.amountDigits) significant digits")
        }
    }

    /// One of `Choice`'s raw values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _: Choice.Type) throws -> Choice?
    where Choice.RawValue == String {
        guard let value = text(name) else { return nil }
        guard let choice = Choice(rawValue: value.lowercased()) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ServiceError.badParameter(name, value, expected: "one of \(allowed)")
        }
        return choice
    }

    /// A whole number from 0 to `maximum`.
    mutating func count(_ name: String, atMost maximum: Int) throws -> Int? {
        guard let value = text(name) else { return nil }
        guard let number = Int(value), number >= 0, number <= maximum else {
            throw ServiceError.badParameter(name, value, expected: "a whole number from 0 to \(maximum)")
        }
        return number
    }

    /// A moment (`--as-of`'s forms: a day, or an ISO 8601 time).
    mutating func moment(_ name: String) throws -> Date? {
        guard let value = text(name) else { return nil }
        guard let moment = AsOfMoment.parse(value) else {
            throw ServiceError.badParameter(
                name, value, expected: "a day (YYYY-MM-DD) or a moment (YYYY-MM-DDTHH:MM:SSZ)")
        }
        return moment
    }

    /// Refuses any parameter that was not read (the request asked for something no one
    /// answers), and one given twice, or under two of its names (`symbols` and `to`): only one
    /// would be answered.
    func checkAllRead() throws {
        for (name, value) in request.query where !read.contains(name) {
            throw ServiceError(status: 400, "unknown parameter \(name)=\(value)")
        }
        for group in groups {
            let given = request.query.filter { group.contains($0.name) }
            guard given.count > 1 else { continue }
            let spelled = given.map { "\($0.name)=\($0.value)" }.joined(separator: " and ")
            throw ServiceError(
                status: 400,
                "parameter \(group.joined(separator: "/")) is given more than once (\(spelled)); give it once",
                code: "bad-parameter")
        }
    }
}

extension RequestParameters {
    /// A flag: absent, or `true`/`false` (`1`/`0`; a bare `name` is true).
    mutating func flag(_ name: String) throws -> Bool {
        guard let value = text(name) else { return false }
        switch value.lowercased() {
        case "", "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ServiceError.badParameter(name, value, expected: "true or false")
        }
    }
}
