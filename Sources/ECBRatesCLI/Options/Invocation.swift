/// What a command line asks for, parsed once: text to print (help, the version), or a command
/// made and filled from its declarations.
enum Invocation: Sendable {
    /// Print this (help or the version) and exit 0.
    case print(String)
    /// Run this command.
    case run(ParsedCommand)

    /// Parses `arguments` (without the program name). A wrong command line throws its
    /// ``UsageError``, except a bad value, which ``ParsedCommand/failure`` carries so that the
    /// command's format can say how to print it.
    init(_ arguments: [String]) throws {
        guard let first = arguments.first else {
            self = .print(CLI.help)
            return
        }
        switch first {
        case "-h", "--help":
            self = .print(CLI.help)
        case "--version":
            self = .print("\(CLI.version)\n")
        case "help":
            guard let name = arguments.dropFirst().first else {
                self = .print(CLI.help)
                return
            }
            guard arguments.count == 2 else { throw UsageError("Unexpected argument '\(arguments[2])'") }
            if name == "help" {
                self = .print(CLI.helpOfHelp)
                return
            }
            guard let command = CLI.commands.first(where: { $0.name == name }) else {
                throw UsageError("Unknown command '\(name)'")
            }
            self = .print(command.makeSpec().helpText)
        default:
            guard let entry = CLI.commands.first(where: { $0.name == first }) else {
                if first.hasPrefix("-") { throw UsageError("Unknown option '\(first)'") }
                let suggestion =
                    Suggestions.nearest(to: first, among: CLI.commands.map(\.name) + ["help"]).map {
                        ". Did you mean '\($0)'?"
                    } ?? ""
                throw UsageError("Unknown command '\(first)'\(suggestion)")
            }
            let (command, spec) = entry.make()
            let outcome = try ArgumentParser(spec: spec).parse(Array(arguments.dropFirst()))
            self =
                outcome.wantsHelp
                ? .print(spec.helpText) : .run(ParsedCommand(command: command, spec: spec, failure: outcome.failure))
        }
    }
}
