import ECBRates
import Foundation

/// The `ecbrates` command line: parses the arguments, runs the command, prints, and returns the
/// exit code. The executable only calls ``main(_:environment:console:)``.
package enum CLI {
    /// The version `--version` prints.
    package static let version = "1.0.0"

    /// Runs the command line `arguments` (without the program name) as the process, with its
    /// environment and standard output and error, and exits with its exit code; the executable
    /// calls only this.
    ///
    /// A command that does its work in one context (a query, an export, `--version`) runs on
    /// the main thread, which drains the main queue in its run loop: no thread is started. An
    /// import, `validate`, `watch`, the shell and `convert --input` run as an async program
    /// does, on Dispatch's threads.
    package static func start(_ arguments: [String]) -> Never {
        // First of all, so that no signal meets the default action before the command says
        // how it takes one (an import stops politely and says what it stored).
        SignalTrap.armForProcess()
        let environment = EnvironmentVariables.all()
        let console = Console.standard(environment: environment)
        // Parsed once: the parse says where the command runs, and the same parse runs it.
        let invocation = Result { try Invocation(arguments) }
        var onMainThread = true
        if case .success(.run(let parsed)) = invocation, parsed.failure == nil {
            onMainThread = parsed.command.runsOnMainThread
        }
        if onMainThread {
            Task(executorPreference: MainThreadExecutor()) {
                exit(await main(invocation, environment: environment, console: console, sharedStore: nil))
            }
            // The main run loop never runs out of work: it serves the main queue.
            while true { RunLoop.main.run() }
        }
        Task { exit(await main(invocation, environment: environment, console: console, sharedStore: nil)) }
        dispatchMain()
    }

    /// Runs the command line `arguments` (without the program name) and returns its exit code.
    package static func main(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard()
    ) async -> Int32 {
        await main(Result { try Invocation(arguments) }, environment: environment, console: console, sharedStore: nil)
    }

    /// Runs a command line against a store the caller keeps open (the shell's), with the
    /// shell's memory of the warnings it printed.
    static func main(
        _ arguments: [String], environment: [String: String], console: Console, sharedStore: RatesStore?,
        warningMemory: WarningMemory? = nil
    ) async -> Int32 {
        await main(
            Result { try Invocation(arguments) }, environment: environment, console: console, sharedStore: sharedStore,
            warningMemory: warningMemory)
    }

    /// Runs a parsed command line.
    static func main(
        _ invocation: Result<Invocation, any Error>, environment: [String: String], console: Console,
        sharedStore: RatesStore?, warningMemory: WarningMemory? = nil
    ) async -> Int32 {
        var context = CommandContext(environment: environment, console: console, sharedStore: sharedStore)
        context.warningMemory = warningMemory
        var errorsAsJSON = false
        do {
            let status = try await run(invocation.get(), context: context)
            // A result that did not reach standard output is a failure, whatever the command did.
            try console.checkOutput()
            return status
        } catch let failure as CommandFailure {
            errorsAsJSON = failure.errorsAsJSON
            return report(failure.error, context: context, json: errorsAsJSON)
        } catch {
            return report(error, context: context, json: errorsAsJSON)
        }
    }

    /// Prints `error` (as one JSON object on standard error when the command's format is JSON)
    /// and returns its exit code.
    static func report(_ error: any Error, context: CommandContext, json: Bool) -> Int32 {
        let status = error is UsageError ? ExitCode.usage : ExitCode.code(for: error)
        if json {
            let message = (error as? UsageError)?.message ?? FailureText.describe(error)
            let code = (error as? UsageError)?.code ?? FailureKind.code(of: error)
            context.console.err(ErrorAnswer(message: message, status: status, code: code).rendered(as: .json))
        } else if let error = error as? UsageError {
            context.usageError(error)
        } else {
            context.failure(error)
        }
        return status
    }

    /// The commands, in the order help lists them: the import's, then one per question
    /// (``Questions/all``, each ``QuestionCommand`` unless it has a command of its own), then
    /// the rest.
    static var commands: [CommandEntry] {
        [CommandEntry(ImportCommand.self), CommandEntry(ValidateCommand.self)]
            + Questions.all.map { commandsOfTheirOwn[$0.name] ?? entry(asking: $0) }
            + [
                CommandEntry(ExportCommand.self), CommandEntry(ShellCommand.self), CommandEntry(WatchCommand.self),
                CommandEntry(ServeCommand.self), CommandEntry(MCPCommand.self), CommandEntry(ManCommand.self),
                CommandEntry(CompletionsCommand.self),
            ]
    }

    /// The questions whose command adds to the question: `convert --input`, `series --chart`,
    /// `status --max-age-days`.
    static let commandsOfTheirOwn: [String: CommandEntry] = [
        ConvertQuestion.name: CommandEntry(ConvertCommand.self), SeriesQuestion.name: CommandEntry(SeriesCommand.self),
        StatusQuestion.name: CommandEntry(StatusCommand.self),
    ]

    /// The command that asks `question`.
    private static func entry<Q: Question>(asking _: Q.Type) -> CommandEntry {
        CommandEntry(QuestionCommand<Q>.self)
    }

    /// Prints help or the version, or runs the parsed command.
    static func run(_ invocation: Invocation, context: CommandContext) async throws -> Int32 {
        // A command that does not stop politely (and help, a bad command line) takes signals as
        // the default action does, including one that came while the process started.
        if case .run(let parsed) = invocation, parsed.failure == nil, parsed.command.stopsPolitelyOnSignals {
        } else {
            SignalTrap.useDefaultAction()
        }
        switch invocation {
        case .print(let text):
            context.console.out(text)
            return ExitCode.success
        case .run(let parsed):
            // Under a JSON format, errors are JSON too (a bad --format itself is reported as text).
            let errorsAsJSON = parsed.command.outputFormat?.isJSON ?? false
            if let failure = parsed.failure { throw CommandFailure(error: failure, errorsAsJSON: errorsAsJSON) }
            var context = context
            if parsed.command.quiet { context.console = context.console.quieted() }
            do {
                return try await parsed.command.run(context)
            } catch let error as QueryError where error.isUsageError {
                let message = error.message(for: .commandLine)
                throw CommandFailure(
                    error: UsageError(
                        message.prefix(1).uppercased() + message.dropFirst(),
                        command: parsed.spec.name, code: error.code), errorsAsJSON: errorsAsJSON)
            } catch {
                throw CommandFailure(error: error, errorsAsJSON: errorsAsJSON)
            }
        }
    }

    static let usage = "ecbrates <subcommand>"

    /// `ecbrates help help`.
    static let helpOfHelp = """
        OVERVIEW: Show help for ecbrates or one of its subcommands.

        USAGE: ecbrates help [<subcommand>]

        ARGUMENTS:
          <subcommand>            The subcommand to show help for (none: every subcommand, in short).

        """

    static var help: String {
        var text = "OVERVIEW: Import the ECB's euro reference exchange rates into a local store, and query them.\n\n"
        text += "USAGE: \(usage)\n\nOPTIONS:\n"
        text += CommandSpec.row("--version", "Show the version.")
        text += CommandSpec.row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in commands { text += CommandSpec.row(command.name, command.abstract) }
        text += CommandSpec.row("help", "Show help for a subcommand.")
        text += "\n  See 'ecbrates help <subcommand>' for detailed help.\n"
        text += "\nEXIT STATUS:\n  0 success, 1 store too old (status --max-age-days), 64 usage error, 65 bad data,\n"
        text += "  66 missing input, 70 a bug, 74 store I/O error, 75 try again later (network, the ECB late,\n"
        text += "  another import running), 130 and 143 stopped by SIGINT and SIGTERM.\n"
        return text
    }
}
