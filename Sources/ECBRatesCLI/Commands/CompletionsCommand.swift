/// `ecbrates completions bash`: a completion script for the shell, made from the declarations.
struct CompletionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "completions",
        abstract: "Print a shell completion script: commands, options, their values, the store's currency codes.",
        discussion: """
            Load it in bash with 'source <(ecbrates completions bash)', or save it where bash-completion looks
            (~/.local/share/bash-completion/completions/ecbrates); the Debian package installs it. The script is
            made from the same declarations as --help.
            """)

    @OptionalArgument(.word("shell", help: "The shell: bash.")) var shell: String?

    func run(_ context: CommandContext) async throws -> Int32 {
        switch shell {
        case "bash"?:
            context.console.out(BashCompletion.script(commands: CLI.commands))
            return ExitCode.success
        default:
            throw UsageError(
                shell.map { "'\($0)' is not a shell ecbrates makes completions for; expected: bash" }
                    ?? "Missing expected argument '<shell>'",
                command: Self.configuration.name)
        }
    }
}
