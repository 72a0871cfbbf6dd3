/// A question that cannot be asked as given: a field's value is not of its kind, a field the
/// question needs is missing, one it does not know is given, or two fields disagree. Its words
/// name the fields as the door that asked spells them, and quote a value given at most 64
/// characters long (``shown(_:)``); its code is `bad-parameter` (exit 64 on the command line,
/// HTTP 400), or `conflicting-parameters` for two fields that disagree (HTTP 422).
public struct QuestionRefusal: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable {
        /// `given` is not what `field` takes (`expected`).
        case badValue(QuestionField, given: String, expected: String)
        /// A field the question needs was not given.
        case missing(QuestionField)
        /// A name the question does not know, with its value.
        case unknown(name: String, given: String)
        /// A field given more than once (or by two of its names), as spelled.
        case givenTwice(QuestionField, spelled: [String])
        /// Two fields that do not go together: the words, given the door.
        case conflict(@Sendable (Door) -> String)

        /// The reason with each value given as a message may quote it (``QuestionRefusal/shown(_:)``).
        var shortened: Reason {
            switch self {
            case .badValue(let field, let given, let expected):
                .badValue(field, given: QuestionRefusal.shown(given), expected: expected)
            case .unknown(let name, let given):
                .unknown(name: QuestionRefusal.shown(name), given: QuestionRefusal.shown(given))
            case .givenTwice(let field, let spelled): .givenTwice(field, spelled: spelled.map(QuestionRefusal.shown))
            case .missing, .conflict: self
            }
        }
    }

    /// What is wrong.
    public let reason: Reason

    /// A refusal for `reason`.
    public init(_ reason: Reason) { self.reason = reason }

    /// The stable word a program tests.
    public var code: String {
        if case .conflict = reason { return "conflicting-parameters" }
        return "bad-parameter"
    }

    /// The refusal in `door`'s words.
    public func message(for door: Door) -> String {
        switch (reason.shortened, door) {
        case (.badValue(let field, let given, let expected), .commandLine):
            return "The value '\(given)' is invalid for \(door.label(field)): expected \(expected)"
        case (.badValue(let field, let given, let expected), .api),
            (.badValue(let field, let given, let expected), .page):
            return "parameter \(door.label(field))=\(given) is invalid: expected \(expected)"
        case (.badValue(let field, let given, let expected), .mcp):
            return "argument \"\(field.name)\" (\(given)) is invalid: expected \(expected)"
        case (.badValue(let field, let given, let expected), .swift):
            return "\(door.label(field)) \(given) is invalid: expected \(expected)"
        case (.missing(let field), .commandLine):
            return field.placement == .argument
                ? "Missing expected argument '<\(field.name)>'" : "Missing expected option \(door.label(field))"
        case (.missing(let field), _):
            return "\(door.fieldWord) \(door.label(field)) is required (like \(door.spell(field, field.example)))"
        case (.unknown(let name, let given), .mcp):
            return "unknown argument \"\(name)\" (\(given))"
        case (.unknown(let name, let given), _):
            return "unknown \(door.fieldWord) \(name)=\(given)"
        case (.givenTwice(let field, let spelled), _):
            return
                "\(door.fieldWord) \(door.label(field)) is given more than once (\(spelled.joined(separator: " and "))); give it once"
        case (.conflict(let words), _):
            return words(door)
        }
    }

    public var description: String { message(for: .commandLine) }

    /// A value as a message quotes it: whole up to 64 characters; else its first 64, "…" and its
    /// length, so that a long bad value (a model's 10,000 characters) is not repeated whole.
    public static func shown(_ value: String) -> String {
        value.count <= 64 ? value : "\(value.prefix(64))… (\(value.count) characters)"
    }
}
