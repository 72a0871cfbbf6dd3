/// What a command accepts, from which its parsing, usage line and help are made.
struct CommandSpec: Sendable {
    struct Argument: Sendable {
        let name: String
        let help: String
        var repeating = false
        var optional = false
    }

    struct Option: Sendable {
        /// `--workers`, or a flag like `--dry-run`.
        let name: String
        /// A short form (`-h`), if any.
        var short: String?
        /// The value's name (`<n>`); nil for a flag.
        let value: String?
        let help: String
    }

    let name: String
    let abstract: String
    var discussion: String?
    var arguments: [Argument] = []
    var options: [Option] = []
    /// The command's `--format` option, if it has one: under a JSON format, errors are JSON too.
    var format: TypedOption<OutputFormat>?
    /// Whether the shell runs it (every command but the shell itself).
    var inShell = true

    static let helpOption = Option(name: "--help", short: "-h", value: nil, help: "Show help information.")

    var allOptions: [Option] { options + [Self.helpOption] }

    func option(named name: String) -> Option? {
        allOptions.first { $0.name == name || $0.short == name }
    }

    /// `ecbrates import [<source> ...] [--workers <n>] …`
    var usage: String {
        var parts = ["ecbrates", name]
        for argument in arguments {
            var text = "<\(argument.name)>" + (argument.repeating ? " ..." : "")
            if argument.optional || argument.repeating && argument.optional { text = "[\(text)]" }
            parts.append(text)
        }
        for option in options {
            parts.append("[\(option.name)\(option.value.map { " <\($0)>" } ?? "")]")
        }
        return parts.joined(separator: " ")
    }

    /// The help text, laid out as swift-argument-parser lays it out.
    var help: String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n" + discussion + "\n" }
        text += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                text += Self.row("<\(argument.name)>", argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in allOptions {
            let names = (option.short.map { "\($0), " } ?? "") + option.name + (option.value.map { " <\($0)>" } ?? "")
            text += Self.row(names, option.help)
        }
        return text
    }

    /// Two columns: the name padded to 24, then the text; a longer name gets its own line.
    static func row(_ name: String, _ help: String) -> String {
        let indent = "  "
        if name.count <= 22 {
            return indent + name.padding(toLength: 24, withPad: " ", startingAt: 0) + help + "\n"
        }
        return indent + name + "\n" + String(repeating: " ", count: 26) + help + "\n"
    }
}
