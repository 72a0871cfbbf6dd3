import Foundation

/// `ecbrates man [<command>]`: a manual page in roff, made from the declarations `--help` uses.
struct ManCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "man",
        abstract: "Print a manual page (roff) for man(1): ecbrates(1), or a command's.",
        discussion: """
            Pages are made from the same declarations as --help, so they cannot drift from the tool. Read one with
            'ecbrates man rate | man -l -'; the Debian package installs them all.
            """)

    @OptionalArgument(
        .word(
            "command", help: "The command whose page to print (none: ecbrates(1)).",
            completion: .words(CLI.commands.map(\.name))))
    var command: String?
    @Option(
        .text(
            "--write", value: "directory",
            help: "Write every page into this directory instead (ecbrates.1, ecbrates-<command>.1), naming each.",
            completion: .directory))
    var write: String?

    func run(_ context: CommandContext) async throws -> Int32 {
        if let write {
            guard command == nil else {
                throw UsageError(
                    "--write writes every page; give no <command> with it", command: Self.configuration.name)
            }
            let directory = URL(fileURLWithPath: write, isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, roff) in ManPage.allPages(commands: CLI.commands) {
                let file = directory.appendingPathComponent(name)
                try Data(roff.utf8).write(to: file)
                context.console.out(file.path + "\n")
            }
            return ExitCode.success
        }
        guard let command else {
            context.console.out(ManPage.mainPage(commands: CLI.commands))
            return ExitCode.success
        }
        guard let entry = CLI.commands.first(where: { $0.name == command }) else {
            throw UsageError(
                "no command '\(command)'; one of: \(CLI.commands.map(\.name).joined(separator: ", "))",
                command: Self.configuration.name)
        }
        context.console.out(ManPage.page(for: entry.makeSpec()))
        return ExitCode.success
    }
}
