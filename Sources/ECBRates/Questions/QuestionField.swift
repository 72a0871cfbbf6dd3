import EurofxrefFeed
import Foundation

/// One field of a question, declared once: its name, the type of its value, its default and
/// one line of help. Every door is made from it: the command line's option or argument (and so
/// `--help`, the manual page and the completions), `/api/`'s query parameter, the MCP tool's
/// JSON Schema, and the OpenAPI document.
///
/// ```swift
/// QuestionField(name: "date", kind: .day, help: "The day (YYYY-MM-DD; default: the newest stored day).")
/// // --date <day>     date=2024-03-28     "date": "2024-03-28"
/// ```
public struct QuestionField: Sendable, Equatable {
    /// The type of a field's value.
    public enum Kind: Sendable, Equatable {
        /// One ISO 4217 code, three letters (upper-cased).
        case currency
        /// Codes, comma-separated (or, over MCP, a list), each once.
        case currencies
        /// A day, `YYYY-MM-DD`.
        case day
        /// A moment: a day (its end, in UTC) or an ISO 8601 time.
        case moment
        /// A decimal amount, kept exactly as written.
        case amount
        /// A whole number from `minimum` to `maximum`.
        case count(minimum: Int, maximum: Int)
        /// One of these words.
        case choice([String])
        /// Present (true) or not.
        case flag
    }

    /// Where the command line takes it: as an option (`--date <day>`) or a word (`<currency>`).
    public enum Placement: Sendable, Equatable {
        case option
        case argument
    }

    /// The name, as `/api/` and MCP spell it (`as_of`); the command line's option is made of it
    /// (`--as-of`).
    public let name: String
    /// The type of its value.
    public let kind: Kind
    /// One line of help; `{name}` stands for another field, spelled as the door spells it.
    public let help: String
    /// Its value's name in help (`day`, `codes`).
    public let valueName: String
    /// Whether the question needs it.
    public var isRequired = false
    /// An option or a positional word on the command line.
    public var placement = Placement.option
    /// Other names `/api/` takes it by (`currency` for `currencies`).
    public var aliases: [String] = []
    /// Its default, as text, for the documents that list it (nil: none, or one that depends on
    /// the store, which the help says).
    public var defaultText: String?
    /// A value to show in advice (`amount=100`).
    public var example: String

    /// A field named `name` of `kind`, with `help`.
    public init(
        name: String, kind: Kind, help: String, valueName: String? = nil, isRequired: Bool = false,
        placement: Placement = .option, aliases: [String] = [], defaultText: String? = nil, example: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.valueName = valueName ?? Self.valueName(of: kind)
        self.isRequired = isRequired
        self.placement = placement
        self.aliases = aliases
        self.defaultText = defaultText
        self.example = example ?? Self.example(of: kind)
    }

    /// The same field under another name (and aliases), optional: how an API with its own
    /// words for it reads it (Frankfurter's `symbols` or `to` for `currencies`), refusing a bad
    /// value in those words.
    public func renamed(_ name: String, aliases: [String] = []) -> QuestionField {
        QuestionField(
            name: name, kind: kind, help: help, valueName: valueName, placement: placement, aliases: aliases,
            defaultText: defaultText, example: example)
    }

    /// The command line's option: `--as-of` for `as_of`.
    public var optionName: String { "--" + name.replacingOccurrences(of: "_", with: "-") }
    /// The field's name as a Swift parameter label: `asOf` for `as_of`.
    public var swiftName: String {
        let words = name.split(separator: "_")
        return words.prefix(1).joined() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The help, with each `{field}` spelled as `door` spells it (`--to` or `to`).
    public func help(for door: Door) -> String {
        var text = "", token: String?
        for character in help {
            if character == "{" {
                token = ""
            } else if character == "}", let name = token {
                text += door == .commandLine ? "--" + name.replacingOccurrences(of: "_", with: "-") : name
                token = nil
            } else if token != nil {
                token!.append(character)
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// The words a choice takes (empty for other kinds).
    public var choices: [String] {
        if case .choice(let words) = kind { return words }
        return []
    }

    /// What a good value looks like, for the refusal of a bad one.
    public var expected: String {
        switch kind {
        case .currency: "a currency code like USD"
        case .currencies: "currency codes like USD,JPY"
        case .day: "a day as YYYY-MM-DD"
        case .moment: "a day as YYYY-MM-DD or a time as YYYY-MM-DDTHH:MM:SSZ (or with an offset, +02:00)"
        case .amount: "a number like 100, 12.50 or -3.10"
        case .count(let minimum, let maximum): "a whole number from \(minimum) to \(maximum)"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .flag: "true or false"
        }
    }

    private static func valueName(of kind: Kind) -> String {
        switch kind {
        case .currency: "currency"
        case .currencies: "codes"
        case .day: "day"
        case .moment: "time"
        case .amount: "amount"
        case .count: "n"
        case .choice: "choice"
        case .flag: "flag"
        }
    }

    private static func example(of kind: Kind) -> String {
        switch kind {
        case .currency: "USD"
        case .currencies: "USD,JPY"
        case .day: "2024-03-28"
        case .moment: "2026-10-01T17:00:00Z"
        case .amount: "100"
        case .count(let minimum, _): "\(minimum)"
        case .choice(let words): words.first ?? ""
        case .flag: "true"
        }
    }
}

extension QuestionField {
    /// The fields several questions share, each written once.
    public static let date = QuestionField(
        name: "date", kind: .day, help: "The day (YYYY-MM-DD; default: the newest stored day).")
    /// `base`.
    public static let base = QuestionField(
        name: "base", kind: .currency, help: "Quote against this currency instead of the euro.", defaultText: "EUR")
    /// `fallback`.
    public static let fallback = QuestionField(
        name: "fallback", kind: .choice(RateFallback.allCases.map(\.rawValue)),
        help:
            "On a day without a rate: none, previous (default), next, nearest or interpolate (within \(RateFallback.window) days).",
        valueName: "rule", defaultText: "previous")
    /// `as_of`.
    public static let asOf = QuestionField(
        name: "as_of", kind: .moment,
        help:
            "Answer as the store would have then: a day (YYYY-MM-DD, its end in UTC) or a time (2026-10-01T17:00:00Z).")
    /// `to`, the last day of a range.
    public static let to = QuestionField(
        name: "to", kind: .day, help: "The last day (default: the newest stored day).")
    /// `partial`.
    public static let partial = QuestionField(
        name: "partial", kind: .flag,
        help: "Answer from what is stored when the range reaches business days the store lacks (they are listed).",
        defaultText: "false")

    /// `from`, the first day of a range, with its default said in `help`.
    public static func from(_ help: String) -> QuestionField {
        QuestionField(name: "from", kind: .day, help: help)
    }
}
