/// What a command accepts, made from its declarations: the usage line and help (and, from the
/// same declarations, man pages and completions).
struct CommandSpec: Sendable {
    /// The command's name, abstract and discussion.
    let configuration: CommandConfiguration
    /// Its inputs, in the order declared.
    let declarations: [InputDeclaration]

    /// `-h, --help`, which every command takes.
    static let help = InputDeclaration(
        name: "--help", help: "Show help information.", kind: .flag, choices: [], completion: .none,
        assign: { _ in }, wasRead: { true })

    var name: String { configuration.name }
    var abstract: String { configuration.abstract }

    /// The positional arguments, in order.
    var arguments: [InputDeclaration] { declarations.filter(\.isArgument) }
    /// The options and flags, in order, `--help` last.
    var options: [InputDeclaration] { declarations.filter { !$0.isArgument } + [Self.help] }

    /// The option or flag spelled `word` (`--date`, or `-h`).
    func option(named word: String) -> InputDeclaration? {
        if word == "-h" { return Self.help }
        return options.first { $0.name == word }
    }

    /// `ecbrates import [<source> ...] [--workers <n>] …`
    var usage: String {
        var parts = ["ecbrates", name]
        for argument in arguments {
            guard case .argument(let optional, let repeating) = argument.kind else { continue }
            let text = "<\(argument.name)>" + (repeating ? " ..." : "")
            parts.append(optional ? "[\(text)]" : text)
        }
        for option in declarations where !option.isArgument {
            if case .option(let value) = option.kind {
                parts.append("[\(option.name) <\(value)>]")
            } else {
                parts.append("[\(option.name)]")
            }
        }
        return parts.joined(separator: " ")
    }

    /// The help text, laid out as swift-argument-parser lays it out.
    var helpText: String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion = configuration.discussion { text += "\n" + discussion + "\n" }
        text += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += Self.row("<\(argument.name)>", argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var names = option.name == "--help" ? "-h, --help" : option.name
            if case .option(let value) = option.kind { names += " <\(value)>" }
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
