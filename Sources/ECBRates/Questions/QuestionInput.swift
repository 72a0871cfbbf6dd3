import EurofxrefFeed
import Foundation

/// The values given for a question's fields, parsed and typed, by field name: what a door hands
/// the question (``Question/asking(_:)``), whichever door it is.
public struct QuestionInput: Sendable, Equatable {
    /// The values given, by field name.
    public private(set) var values: [String: FieldValue] = [:]

    /// No value given.
    public init() {}

    /// The input a question is being made of (``Question/init(_:)``): each ``Field`` of the
    /// question reads its value from it as the question's `init()` makes the field.
    @TaskLocal static var beingRead: QuestionInput?

    /// Sets `name`'s value.
    public mutating func set(_ name: String, _ value: FieldValue) { values[name] = value }

    /// Forgets `name`'s value (as if it was not given).
    public mutating func remove(_ name: String) { values[name] = nil }

    /// Whether `name` was given.
    public func has(_ name: String) -> Bool { values[name] != nil }

    // By name, for a door with words of its own (Frankfurter's `symbols`, `amount`): a question
    // reads its values through its ``Field`` properties instead.

    /// A currency code.
    public func currency(_ name: String) -> CurrencyCode? {
        if case .currency(let code) = values[name] { return code }
        return nil
    }

    /// A list of currency codes.
    public func currencies(_ name: String) -> [CurrencyCode]? {
        if case .currencies(let codes) = values[name] { return codes }
        return nil
    }

    /// A day.
    public func day(_ name: String) -> CalendarDay? {
        if case .day(let day) = values[name] { return day }
        return nil
    }

    /// A moment.
    public func moment(_ name: String) -> Date? {
        if case .moment(let moment) = values[name] { return moment }
        return nil
    }

    /// An amount and its text as given.
    public func amount(_ name: String) -> (value: Decimal, text: String)? {
        if case .amount(let value, let text) = values[name] { return (value, text) }
        return nil
    }

    /// A whole number.
    public func count(_ name: String) -> Int? {
        if case .count(let number) = values[name] { return number }
        return nil
    }

    /// One of `Choice`'s cases.
    public func choice<Choice: RawRepresentable>(_ name: String, _: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        if case .choice(let word) = values[name] { return Choice(rawValue: word) }
        return nil
    }

    /// A flag (false when not given).
    public func flag(_ name: String) -> Bool {
        if case .flag(let value) = values[name] { return value }
        return false
    }
}

extension QuestionInput {
    /// The values of `fields` in query parameters (`/api/`): each by its name or an alias, once;
    /// a name no field has is refused, so that a typo (`symbol=USD`) never silently widens an
    /// answer.
    public static func reading(
        _ fields: [QuestionField], parameters: [(name: String, value: String)]
    ) throws(QuestionRefusal) -> QuestionInput {
        var input = QuestionInput()
        for (name, value) in parameters where !fields.contains(where: { $0.name == name || $0.aliases.contains(name) })
        {
            throw QuestionRefusal(.unknown(name: name, given: value))
        }
        for field in fields {
            let given = parameters.filter { $0.name == field.name || field.aliases.contains($0.name) }
            guard let first = given.first else { continue }
            if given.count > 1 {
                throw QuestionRefusal(.givenTwice(field, spelled: given.map { "\($0.name)=\($0.value)" }))
            }
            input.set(field.name, try field.parse(first.value))
        }
        return input
    }

    /// The values of `fields` in a JSON object's members (an MCP tool's arguments); a member no
    /// field has is refused, as the tool's schema says (`additionalProperties: false`).
    public static func reading(
        _ fields: [QuestionField], json arguments: [String: Any]
    ) throws(QuestionRefusal)
        -> QuestionInput
    {
        var input = QuestionInput()
        for (name, value) in arguments.sorted(by: { $0.key < $1.key })
        where !fields.contains(where: { $0.name == name }) {
            throw QuestionRefusal(.unknown(name: name, given: "\(value)"))
        }
        for field in fields {
            guard let value = arguments[field.name], !(value is NSNull) else { continue }
            input.set(field.name, try field.parse(json: value))
        }
        return input
    }
}
