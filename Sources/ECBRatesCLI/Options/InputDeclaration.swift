import Synchronization

/// One input a command declares (an option, a flag or a positional argument), as the parser,
/// help, man pages and completions see it: its name, help and shape, and how to set the typed
/// value the command reads.
struct InputDeclaration: Sendable {
    /// What kind of input it is.
    enum Kind: Sendable, Equatable {
        /// `--date <day>`: an option with a value named `value`.
        case option(value: String)
        /// `--dry-run`: present or not.
        case flag
        /// A positional argument; `optional` ones may be left out, a `repeating` one takes the rest.
        case argument(optional: Bool, repeating: Bool)
    }

    /// `--date` for an option or flag; `currencies` for an argument.
    let name: String
    /// The help text, one sentence or two.
    let help: String
    /// The option, flag or argument.
    let kind: Kind
    /// Values it can take, for completions (`--format`'s formats); empty when any.
    let choices: [String]
    /// What completes its value: nothing special, currency codes, or files.
    let completion: ValueCompletion
    /// Sets the typed value from the words given (for an option, each time it was given; for a
    /// repeating argument, every word); an empty list leaves its default. Throws a
    /// ``UsageError`` naming the input and what it expected.
    let assign: @Sendable ([String]) throws -> Void
    /// Whether the command read the value (see ``InputBox``).
    let wasRead: @Sendable () -> Bool

    /// `'--date <day>'`, `'--dry-run'` or `'<currencies>'`, as messages name it.
    var label: String {
        switch kind {
        case .option(let value): "'\(name) <\(value)>'"
        case .flag: "'\(name)'"
        case .argument: "'<\(name)>'"
        }
    }

    /// True for a positional argument.
    var isArgument: Bool { if case .argument = kind { true } else { false } }
}
