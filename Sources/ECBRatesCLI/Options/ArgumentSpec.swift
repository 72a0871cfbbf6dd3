import ECBRates
import EurofxrefFeed
import Foundation

/// What a positional argument is: its name and help, and how its word becomes the typed value.
struct ArgumentSpec<Value: Sendable>: Sendable {
    /// `currencies` (shown as `<currencies>`).
    let name: String
    /// The help text.
    let help: String
    /// What a good value looks like, for the error on a bad one.
    let expected: String
    /// What completes it.
    var completion: ValueCompletion = .none
    /// The value `word` spells, or an error message (`expected …`); nil means the usual one.
    let parse: @Sendable (String) -> Result<Value, ArgumentRefusal>

    /// The value of `word`, or a ``UsageError`` naming the argument and what it expected.
    func value(of word: String) throws -> Value {
        switch parse(word) {
        case .success(let value): return value
        case .failure(let refusal):
            throw UsageError("The value '\(word)' is invalid for '<\(name)>': expected \(refusal.expected ?? expected)")
        }
    }

    /// Any word.
    static func word(_ name: String, help: String, completion: ValueCompletion = .none) -> Self where Value == String {
        Self(name: name, help: help, expected: name, completion: completion) { .success($0) }
    }

    /// Currency codes, comma-separated (`USD` or `usd,GBP`).
    static func currencies(_ name: String, help: String) -> Self where Value == [CurrencyCode] {
        let field = QuestionField(name: name, kind: .currencies, help: help)
        return Self(name: name, help: help, expected: field.expected, completion: .currencies) { word in
            // The rule of a question's `currencies` field (FieldValue), written once.
            guard case .currencies(let codes)? = try? field.parse(word) else { return .failure(ArgumentRefusal()) }
            return .success(codes)
        }
    }

    /// An amount: `-`, digits, optionally `.` and digits, with at most
    /// ``DecimalMath/amountDigits`` significant digits (so that it is kept exactly).
    static func amount(_ name: String, help: String) -> Self where Value == Amount {
        Self(name: name, help: help, expected: "a number like 100, 12.50 or -3.10") { word in
            switch DecimalMath.amount(word) {
            case .value(let value): .success(Amount(value: value, text: word))
            case .notANumber: .failure(ArgumentRefusal())
            case .tooManyDigits:
                .failure(ArgumentRefusal(expected: "at most \(DecimalMath.amountDigits) significant digits"))
            }
        }
    }
}
