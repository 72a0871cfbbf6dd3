import ECBRates
import EurofxrefFeed
import Foundation

/// An option declared once, with the type of its value: the spec gives its name and help, and
/// `parse` turns its text into the value. Commands list `option.spec` in their ``CommandSpec``
/// and read `try arguments[option]`: the name is written in one place, and what comes back is
/// typed (a day, a number, an enum), or a ``UsageError`` that names the option and what it
/// expected.
struct TypedOption<Value: Sendable>: Sendable {
    /// The name, value name and help, as help shows them.
    let spec: CommandSpec.Option
    /// What a good value looks like, for the error on a bad one ("a day as YYYY-MM-DD").
    let expected: String
    /// The value `text` spells, or nil.
    let parse: @Sendable (String) -> Value?

    init(_ name: String, value: String, help: String, expected: String, parse: @escaping @Sendable (String) -> Value?) {
        spec = CommandSpec.Option(name: name, value: value, help: help)
        self.expected = expected
        self.parse = parse
    }
}

/// An option without a value (`--dry-run`).
struct FlagOption: Sendable {
    /// The name and help.
    let spec: CommandSpec.Option

    init(_ name: String, help: String) {
        spec = CommandSpec.Option(name: name, value: nil, help: help)
    }
}

extension TypedOption where Value == CalendarDay {
    /// A day, `YYYY-MM-DD`.
    static func day(_ name: String, help: String) -> Self {
        Self(name, value: "day", help: help, expected: "a day as YYYY-MM-DD") { CalendarDay($0) }
    }
}

extension TypedOption where Value == Int {
    /// A whole number of at least `minimum`.
    static func integer(_ name: String, value: String = "n", minimum: Int = 1, maximum: Int? = nil, help: String) -> Self {
        let expected = maximum.map { "a whole number from \(minimum) to \($0)" } ?? "a whole number of \(minimum) or more"
        return Self(name, value: value, help: help, expected: expected) { text in
            Int(text).flatMap { $0 >= minimum && $0 <= (maximum ?? .max) ? $0 : nil }
        }
    }
}

extension TypedOption where Value == Double {
    /// A number of seconds: zero or more, or more than zero when `positive`.
    static func seconds(_ name: String, positive: Bool = false, help: String) -> Self {
        Self(name, value: "seconds", help: help, expected: positive ? "a number of seconds, more than 0" : "a number of seconds, 0 or more") { text in
            Double(text).flatMap { $0.isFinite && (positive ? $0 > 0 : $0 >= 0) ? $0 : nil }
        }
    }
}

extension TypedOption where Value == String {
    /// Any text (a path).
    static func text(_ name: String, value: String, help: String) -> Self {
        Self(name, value: value, help: help, expected: value) { $0 }
    }

    /// One currency code, upper-cased (`usd` → USD).
    static func currency(_ name: String, help: String) -> Self {
        Self(name, value: "currency", help: help, expected: "a currency code like USD") { text in
            let code = text.uppercased()
            return code.count == 3 && code.allSatisfy { $0 >= "A" && $0 <= "Z" } ? code : nil
        }
    }
}

extension TypedOption where Value == [String] {
    /// Comma-separated currency codes, upper-cased (`usd,JPY` → USD, JPY).
    static func currencies(_ name: String, help: String) -> Self {
        Self(name, value: "codes", help: help, expected: "currency codes like USD,JPY") { text in
            CurrencyList.parse(text)
        }
    }
}

/// Comma-separated currency codes, as options and arguments take them.
enum CurrencyList {
    /// `usd, JPY` → [USD, JPY]; nil unless every item is three letters.
    static func parse(_ text: String) -> [String]? {
        // Blanks around a code are dropped in plain Swift: Foundation's trimming goes through
        // NSString and UTF-16, a start-up cost for every query that names a currency.
        let codes = text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            var code = item
            while code.first?.isWhitespace == true { code.removeFirst() }
            while code.last?.isWhitespace == true { code.removeLast() }
            return code.uppercased()
        }
        guard !codes.isEmpty, codes.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0 >= "A" && $0 <= "Z" } }) else { return nil }
        return codes
    }
}

extension TypedOption where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of the enum's cases (or of `allowed`), by its raw value.
    static func choice(_ name: String, value: String, allowed: [Value] = Array(Value.allCases), help: String) -> Self {
        let names = allowed.map(\.rawValue)
        return Self(name, value: value, help: help, expected: "one of " + names.joined(separator: ", ")) { text in
            Value(rawValue: text).flatMap { names.contains($0.rawValue) ? $0 : nil }
        }
    }
}

extension ParsedArguments {
    /// The option's value (the last, when given more than once), typed; nil when not given;
    /// a ``UsageError`` naming the option when its text is not a good value.
    subscript<Value>(option: TypedOption<Value>) -> Value? {
        get throws {
            guard let text = value(option.spec.name) else { return nil }
            guard let value = option.parse(text) else {
                throw UsageError("The value '\(text)' is invalid for \(label(option.spec)): expected \(option.expected)", command: spec.name)
            }
            return value
        }
    }

    /// Whether the flag was given.
    subscript(option: FlagOption) -> Bool { flag(option.spec.name) }

    /// Whether the option was given at all.
    func given(_ option: CommandSpec.Option) -> Bool { value(option.name) != nil || flag(option.name) }

    /// Throws when both options are given.
    func exclusive(_ first: CommandSpec.Option, _ second: CommandSpec.Option) throws {
        if given(first) && given(second) {
            throw UsageError("\(label(first)) and \(label(second)) cannot be used together", command: spec.name)
        }
    }

    /// `'--date <day>'`.
    func label(_ option: CommandSpec.Option) -> String {
        "'\(option.name)\(option.value.map { " <\($0)>" } ?? "")'"
    }
}
