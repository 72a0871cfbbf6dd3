/// `ecbrates completions bash|zsh|fish`: a completion script for the shell, made from the declarations.
struct CompletionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "completions",
        abstract:
            "Print a shell completion script (bash, zsh, fish): commands, options, their values, the store's currency codes.",
        discussion: """
            Load it in bash with 'source <(ecbrates completions bash)' (or save it as
            ~/.local/share/bash-completion/completions/ecbrates), in zsh with 'source <(ecbrates completions zsh)'
            after compinit (or save it as _ecbrates in a directory of $fpath), in fish with
            'ecbrates completions fish | source' (or save it as ~/.config/fish/completions/ecbrates.fish). The
            Debian package installs all three. The scripts are made from the same declarations as --help.
            """)

    @OptionalArgument(
        .word("shell", help: "The shell: bash, zsh or fish.", completion: .words(["bash", "zsh", "fish"])))
    var shell: String?

    func run(_ context: CommandContext) async throws -> Int32 {
        switch shell {
        case "bash"?:
            context.console.out(BashCompletion.script(commands: CLI.commands))
            return ExitCode.success
        case "zsh"?:
            context.console.out(ZshCompletion.script(commands: CLI.commands))
            return ExitCode.success
        case "fish"?:
            context.console.out(FishCompletion.script(commands: CLI.commands))
            return ExitCode.success
        default:
            throw UsageError(
                shell.map { "'\($0)' is not a shell ecbrates makes completions for; expected: bash, zsh or fish" }
                    ?? "Missing expected argument '<shell>'",
                command: Self.configuration.name)
        }
    }
}
