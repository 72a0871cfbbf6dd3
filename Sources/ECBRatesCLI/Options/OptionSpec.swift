import ECBRates
import EurofxrefFeed
import Foundation

/// What an option is, with the type of its value: its name, value name and help (for help,
/// man pages and completions), and how its text becomes the value. A command declares it once,
/// with ``Option``; shared ones live in ``CommonOptions``.
struct OptionSpec<Value: Sendable>: Sendable {
    /// `--date`.
    let name: String
    /// The value's name in help (`day`).
    let value: String
    /// The help text.
    let help: String
    /// What a good value looks like, for the error on a bad one ("a day as YYYY-MM-DD").
    let expected: String
    /// The values it can take, for completions; empty when any.
    var choices: [String] = []
    /// What completes its value.
    var completion: ValueCompletion = .none
    /// The value `text` spells, or nil.
    let parse: @Sendable (String) -> Value?

    init(
        _ name: String, value: String, help: String, expected: String, choices: [String] = [],
        completion: ValueCompletion = .none,
        parse: @escaping @Sendable (String) -> Value?
    ) {
        self.name = name
        self.value = value
        self.help = help
        self.expected = expected
        self.choices = choices
        self.completion = completion
        self.parse = parse
    }

    /// The value of `text`, or a ``UsageError`` naming the option and what it expected.
    func value(of text: String) throws -> Value {
        guard let value = parse(text) else {
            throw UsageError("The value '\(text)' is invalid for '\(name) <\(self.value)>': expected \(expected)")
        }
        return value
    }
}

extension OptionSpec where Value == CalendarDay {
    /// A day, `YYYY-MM-DD`.
    static func day(_ name: String, help: String) -> Self {
        Self(name, value: "day", help: help, expected: "a day as YYYY-MM-DD") { CalendarDay($0) }
    }
}

extension OptionSpec where Value == Int {
    /// A whole number of at least `minimum`.
    static func integer(
        _ name: String, value: String = "n", minimum: Int = 1, maximum: Int? = nil, help: String
    ) -> Self {
        let expected =
            maximum.map { "a whole number from \(minimum) to \($0)" } ?? "a whole number of \(minimum) or more"
        return Self(name, value: value, help: help, expected: expected) { text in
            Int(text).flatMap { $0 >= minimum && $0 <= (maximum ?? .max) ? $0 : nil }
        }
    }
}

extension OptionSpec where Value == Double {
    /// A number of seconds: zero or more, or more than zero when `positive`.
    static func seconds(_ name: String, positive: Bool = false, help: String) -> Self {
        Self(
            name, value: "seconds", help: help,
            expected: positive ? "a number of seconds, more than 0" : "a number of seconds, 0 or more"
        ) { text in
            Double(text).flatMap { $0.isFinite && (positive ? $0 > 0 : $0 >= 0) ? $0 : nil }
        }
    }
}

extension OptionSpec where Value == String {
    /// Any text (a path).
    static func text(_ name: String, value: String, help: String, completion: ValueCompletion = .none) -> Self {
        Self(name, value: value, help: help, expected: value, completion: completion) { $0 }
    }
}

extension OptionSpec where Value == [CurrencyCode] {
    /// Comma-separated currency codes, upper-cased (`usd,JPY` → USD, JPY).
    static func currencies(_ name: String, help: String) -> Self {
        let field = QuestionField(name: name, kind: .currencies, help: help)
        // The rule of a question's `currencies` field (FieldValue), written once.
        return Self(name, value: "codes", help: help, expected: field.expected, completion: .currencies) { text in
            guard case .currencies(let codes)? = try? field.parse(text) else { return nil }
            return codes
        }
    }
}

extension OptionSpec where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of the enum's cases (or of `allowed`), by its raw value.
    static func choice(_ name: String, value: String, allowed: [Value] = Array(Value.allCases), help: String) -> Self {
        let names = allowed.map(\.rawValue)
        return Self(name, value: value, help: help, expected: "one of " + names.joined(separator: ", "), choices: names)
        { text in
            Value(rawValue: text).flatMap { names.contains($0.rawValue) ? $0 : nil }
        }
    }
}
