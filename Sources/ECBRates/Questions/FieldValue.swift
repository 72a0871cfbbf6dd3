import EurofxrefFeed
import Foundation

/// A field's value, parsed once, whichever door it came through.
public enum FieldValue: Sendable, Equatable {
    case currency(CurrencyCode)
    case currencies([CurrencyCode])
    case day(CalendarDay)
    case moment(Date)
    /// The amount and its text as given (trailing zeros kept, for the answer).
    case amount(Decimal, text: String)
    case count(Int)
    case choice(String)
    case flag(Bool)
}

extension QuestionField {
    /// The value `text` spells, or the refusal that names this field, the text and what was
    /// expected. The one place each kind's rule is written (a currency is three letters, …).
    public func parse(_ text: String) throws(QuestionRefusal) -> FieldValue {
        let refuse = { (expected: String) in QuestionRefusal(.badValue(self, given: text, expected: expected)) }
        switch kind {
        case .currency:
            guard let code = CurrencyCode(text) else { throw refuse(expected) }
            return .currency(code)
        case .currencies:
            let given = text.split(separator: ",", omittingEmptySubsequences: false).map { item in
                // Blanks around a code are dropped in plain Swift: Foundation's trimming goes
                // through NSString, a start-up cost for every query that names a currency.
                var code = item
                while code.first?.isWhitespace == true { code.removeFirst() }
                while code.last?.isWhitespace == true { code.removeLast() }
                return CurrencyCode(code)
            }
            let codes = given.compactMap { $0 }
            guard codes.count == given.count else { throw refuse(expected) }
            var seen = Set<CurrencyCode>()
            for code in codes where !seen.insert(code).inserted {
                throw refuse("\(expected), each once (\(code) is listed twice)")
            }
            return .currencies(codes)
        case .day:
            guard let day = CalendarDay(text) else { throw refuse(Self.impossibleDay(text) ?? expected) }
            return .day(day)
        case .moment:
            guard let moment = AsOfMoment.parse(text) else { throw refuse(expected) }
            return .moment(moment)
        case .amount:
            switch DecimalMath.amount(text) {
            case .value(let value): return .amount(value, text: text)
            case .notANumber: throw refuse(expected)
            case .tooManyDigits: throw refuse("at most \(DecimalMath.amountDigits) significant digits")
            }
        case .count(let minimum, let maximum):
            guard let number = Int(text), number >= minimum, number <= maximum else { throw refuse(expected) }
            return .count(number)
        case .choice(let words):
            guard words.contains(text.lowercased()) else { throw refuse(expected) }
            return .choice(text.lowercased())
        case .flag:
            switch text.lowercased() {
            case "", "true", "1", "yes": return .flag(true)
            case "false", "0", "no": return .flag(false)
            default: throw refuse(expected)
            }
        }
    }

    /// The value of a JSON argument (MCP): a string is read as text; a list of strings is a
    /// list of codes; a number is an amount or a count; true or false is a flag.
    public func parse(json value: Any) throws(QuestionRefusal) -> FieldValue {
        // A JSON true or false reaches us as an NSNumber too (of type "c"): only a flag takes it.
        let isBoolean = (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
        switch value {
        case let text as String where text.hasPrefix(JSONNumberLiteral.marker):
            // A JSON number, as its literal text (JSONNumberLiteral): the same rule as that text
            // given as a string, for the kinds that take numbers; refused by the others.
            let literal = String(text.dropFirst(JSONNumberLiteral.marker.count))
            switch kind {
            case .amount, .count: return try parse(literal)
            default: throw QuestionRefusal(.badValue(self, given: literal, expected: expected))
            }
        case let text as String:
            return try parse(text)
        case let list as [Any] where kind == .currencies:
            guard let codes = (list as? [String])?.map({ JSONNumberLiteral.literal($0) ?? $0 }),
                codes.allSatisfy({ !$0.isEmpty })
            else {
                throw QuestionRefusal(.badValue(self, given: "\(list)", expected: expected))
            }
            return try parse(codes.joined(separator: ","))
        case let number as NSNumber where isBoolean:
            guard kind == .flag else {
                throw QuestionRefusal(.badValue(self, given: number.boolValue ? "true" : "false", expected: expected))
            }
            return .flag(number.boolValue)
        case let number as NSNumber:
            let text = "\(number)"
            switch kind {
            case .amount, .count:
                // A JSON number reaches us as a double: beyond 15 digits it may not be what was sent.
                if text.filter(\.isNumber).count > 15 || text.contains("e") {
                    throw QuestionRefusal(
                        .badValue(
                            self, given: text,
                            expected:
                                "\(expected), sent as a string: a JSON number of more than 15 digits may not be what was sent"
                        ))
                }
                return try parse(text)
            default:
                throw QuestionRefusal(.badValue(self, given: text, expected: expected))
            }
        default:
            throw QuestionRefusal(.badValue(self, given: "\(value)", expected: expected))
        }
    }

    /// What is wrong with `text` when it has a day's form, YYYY-MM-DD, but names no day ("a day
    /// that exists: February 2024 has 29 days"); nil when it does not have that form.
    public static func impossibleDay(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        guard (1...12).contains(month) else { return "a day that exists: a month is 01 to 12, not \(parts[1])" }
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let length = CalendarDay.daysInMonth(year: year, month: month)
        guard day == 0 || day > length else { return nil }
        return "a day that exists: \(months[month - 1]) \(year) has \(length) days (01 to \(length))"
    }

}
