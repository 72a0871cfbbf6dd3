import EurofxrefFeed
import Foundation
import ManagedStore
import ECBRates

/// A command line parsed against a ``CommandSpec``: its positional arguments, option values and
/// flags, with typed access that turns bad values into ``UsageError``s naming the option.
struct ParsedArguments: Sendable {
    let spec: CommandSpec
    private(set) var positional: [String] = []
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []

    /// Parses `arguments` (the words after the command's name).
    init(_ arguments: [String], spec: CommandSpec) throws {
        self.spec = spec
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            // A negative number (`-5`, `-12.50`) is an argument: no option starts with a digit.
            if onlyPositional || !word.hasPrefix("-") || word == "-" || Self.isNegativeNumber(word) {
                positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = spec.option(named: name) else {
                throw UsageError("Unknown option '\(name)'", command: spec.name)
            }
            guard let valueName = option.value else {
                if inlineValue != nil { throw UsageError("The option '\(option.name)' takes no value", command: spec.name) }
                flags.insert(option.name)
                continue
            }
            if let inlineValue {
                values[option.name, default: []].append(inlineValue)
            } else if index < arguments.count, !(arguments[index].hasPrefix("-") && arguments[index] != "-" && Double(arguments[index]) == nil) {
                values[option.name, default: []].append(arguments[index])
                index += 1
            } else {
                throw UsageError("Missing value for '\(option.name) <\(valueName)>'", command: spec.name)
            }
        }
        if flags.contains("--help") { return }
        let required = spec.arguments.filter { !$0.optional && !$0.repeating }.count
        let maximum = spec.arguments.contains { $0.repeating } ? Int.max : spec.arguments.count
        if positional.count < required {
            let missing = spec.arguments.filter { !$0.optional }[positional.count]
            throw UsageError("Missing expected argument '<\(missing.name)>'", command: spec.name)
        }
        if positional.count > maximum {
            throw UsageError("Unexpected argument '\(positional[maximum])'", command: spec.name)
        }
    }

    var wantsHelp: Bool { flags.contains("--help") }

    static func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && word.dropFirst().first!.isASCII && word.dropFirst().first!.isNumber
    }

    /// An amount given as a positional argument: `-`, digits, optionally `.` and digits, with at
    /// most ``DecimalMath/amountDigits`` significant digits (so that it is kept exactly).
    func amount(argument text: String, named name: String) throws -> Decimal {
        switch DecimalMath.amount(text) {
        case .value(let amount):
            return amount
        case .notANumber:
            throw UsageError("The value '\(text)' is invalid for '<\(name)>': expected a number like 100, 12.50 or -3.10", command: spec.name)
        case .tooManyDigits:
            throw UsageError("The value '\(text)' is invalid for '<\(name)>': expected at most \(DecimalMath.amountDigits) significant digits",
                             command: spec.name)
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The option's value (the last, when given more than once).
    func value(_ name: String) -> String? { values[name]?.last }

    /// Currency codes given as a positional argument (`USD` or `usd,GBP`).
    func currencies(argument text: String, named name: String) throws -> [String] {
        guard let codes = CurrencyList.parse(text) else {
            throw UsageError("The value '\(text)' is invalid for '<\(name)>': expected currency codes like USD,JPY", command: spec.name)
        }
        return codes
    }

    /// A day given as a positional argument.
    func day(argument text: String, named name: String) throws -> CalendarDay {
        guard let day = CalendarDay(text) else {
            throw UsageError("The value '\(text)' is invalid for '<\(name)>': expected a day as YYYY-MM-DD", command: spec.name)
        }
        return day
    }
}
