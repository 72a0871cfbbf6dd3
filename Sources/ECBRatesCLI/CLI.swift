import ECBRates
import Foundation

/// The `ecbrates` command line: parses the arguments, runs the command, prints, and returns the
/// exit code. The executable only calls ``main(_:environment:console:)``.
public enum CLI {
    /// The version `--version` prints.
    public static let version = "1.0.0"

    /// Runs the command line `arguments` (without the program name) as the process, with its
    /// environment and standard output and error, and exits with its exit code; the executable
    /// calls only this.
    ///
    /// A command that does its work in one context (a query, an export, `--version`) runs on
    /// the main thread, which drains the main queue in its run loop: no thread is started. An
    /// import, `validate`, `watch`, the shell and `convert --input` run as an async program
    /// does, on Dispatch's threads.
    public static func start(_ arguments: [String]) -> Never {
        let environment = EnvironmentVariables.all()
        let console = Console.standard(environment: environment)
        var onMainThread = true
        if let name = arguments.first, let command = commands.first(where: { $0.name == name }),
           let parsed = try? ParsedArguments(Array(arguments.dropFirst()), spec: command.spec) {
            onMainThread = command.runsOnMainThread(parsed)
        }
        if onMainThread {
            Task(executorPreference: MainThreadExecutor()) {
                exit(await main(arguments, environment: environment, console: console))
            }
            // The main run loop never runs out of work: it serves the main queue.
            while true { RunLoop.main.run() }
        }
        Task { exit(await main(arguments, environment: environment, console: console)) }
        dispatchMain()
    }

    /// Runs the command line `arguments` (without the program name) and returns its exit code.
    public static func main(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                            console: Console = .standard()) async -> Int32 {
        await main(arguments, environment: environment, console: console, sharedStore: nil)
    }

    /// Runs a command line against a store the caller keeps open (the shell's).
    static func main(_ arguments: [String], environment: [String: String], console: Console, sharedStore: RatesStore?) async -> Int32 {
        let context = CommandContext(environment: environment, console: console, sharedStore: sharedStore)
        var errorsAsJSON = false
        do {
            let status = try await run(arguments, context: context)
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
            let message = (error as? UsageError)?.message ?? ErrorText.describe(error)
            context.console.err(JSONText.object([("error", .string(message)), ("exitStatus", .number(Double(status)))]).text + "\n")
        } else if let error = error as? UsageError {
            context.usageError(error)
        } else {
            context.failure(error)
        }
        return status
    }

    /// The commands, in the order help lists them.
    static let commands: [CommandEntry] = [
        CommandEntry(ImportCommand.self), CommandEntry(ValidateCommand.self), CommandEntry(RateCommand.self),
        CommandEntry(ConvertCommand.self), CommandEntry(LatestCommand.self), CommandEntry(StatsCommand.self),
        CommandEntry(SeriesCommand.self), CommandEntry(CurrenciesCommand.self), CommandEntry(ExportCommand.self), CommandEntry(CorrectionsCommand.self),
        CommandEntry(StatusCommand.self), CommandEntry(ShellCommand.self), CommandEntry(WatchCommand.self),
    ]

    static func run(_ arguments: [String], context: CommandContext) async throws -> Int32 {
        guard let first = arguments.first else {
            context.console.out(help)
            return ExitCode.success
        }
        switch first {
        case "-h", "--help":
            context.console.out(help)
            return ExitCode.success
        case "--version":
            context.console.out("\(version)\n")
            return ExitCode.success
        case "help":
            return try helpCommand(Array(arguments.dropFirst()), context: context)
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                if first.hasPrefix("-") { throw UsageError("Unknown option '\(first)'") }
                let suggestion = Suggestions.nearest(to: first, among: commands.map(\.name) + ["help"]).map { ". Did you mean '\($0)'?" } ?? ""
                throw UsageError("Unknown command '\(first)'\(suggestion)")
            }
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.wantsHelp {
                context.console.out(command.spec.help)
                return ExitCode.success
            }
            // Under a JSON format, errors are JSON too (a bad --format itself is reported as text).
            let errorsAsJSON = command.spec.format.flatMap { try? parsed[$0] }?.isJSON ?? false
            var context = context
            if command.spec.options.contains(where: { $0.name == CommonOptions.quiet.spec.name }), parsed[CommonOptions.quiet] {
                context.console = context.console.quieted()
            }
            do {
                return try await command.run(parsed, context)
            } catch let error as QueryError where error.isUsageError {
                throw CommandFailure(error: UsageError(error.description.prefix(1).uppercased() + error.description.dropFirst(),
                                                       command: command.spec.name), errorsAsJSON: errorsAsJSON)
            } catch {
                throw CommandFailure(error: error, errorsAsJSON: errorsAsJSON)
            }
        }
    }

    static func helpCommand(_ arguments: [String], context: CommandContext) throws -> Int32 {
        guard let name = arguments.first else {
            context.console.out(help)
            return ExitCode.success
        }
        guard arguments.count == 1 else { throw UsageError("Unexpected argument '\(arguments[1])'") }
        guard let command = commands.first(where: { $0.name == name }) else {
            throw UsageError("Unknown command '\(name)'")
        }
        context.console.out(command.spec.help)
        return ExitCode.success
    }

    static let usage = "ecbrates <subcommand>"

    static var help: String {
        var text = "OVERVIEW: Import the ECB's euro reference exchange rates into a local store, and query them.\n\n"
        text += "USAGE: \(usage)\n\nOPTIONS:\n"
        text += CommandSpec.row("--version", "Show the version.")
        text += CommandSpec.row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in commands { text += CommandSpec.row(command.name, command.spec.abstract) }
        text += CommandSpec.row("help", "Show help for a subcommand.")
        text += "\n  See 'ecbrates help <subcommand>' for detailed help.\n"
        text += "\nEXIT STATUS:\n  0 success, 1 store too old (status --max-age-days), 64 usage error, 65 bad data,\n"
        text += "  66 missing input, 74 store I/O error, 75 try again later (network, another import running).\n"
        return text
    }
}

/// A subcommand.
protocol Command: SendableMetatype {
    /// The word that runs it (`rate`).
    static var name: String { get }
    /// Whether it runs on the main thread alone (see ``CLI/start(_:)``):
    /// true for a command that works in one context; false for one that runs workers beside
    /// its own work, reads standard input or waits for signals.
    static func runsOnMainThread(_ arguments: ParsedArguments) -> Bool
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32
}

extension Command {
    static func runsOnMainThread(_ arguments: ParsedArguments) -> Bool { true }
}

/// A subcommand in the list: its name, its spec and how to run it.
///
/// The spec (options, help text) is built when first asked for, so that a run builds only its
/// own command's: building all thirteen at every start cost a query's start-up their option
/// tables and the Swift runtime's first look at their types.
struct CommandEntry: Sendable {
    let name: String
    let runsOnMainThread: @Sendable (ParsedArguments) -> Bool
    private let makeSpec: @Sendable () -> CommandSpec
    let run: @Sendable (ParsedArguments, CommandContext) async throws -> Int32

    init<C: Command>(_: C.Type) {
        name = C.name
        runsOnMainThread = { C.runsOnMainThread($0) }
        makeSpec = { C.spec }
        run = { try await C.run($0, context: $1) }
    }

    /// The command's options and help.
    var spec: CommandSpec { makeSpec() }
}

/// A command's error, with how to print it.
struct CommandFailure: Error {
    let error: any Error
    /// The command's format is JSON: the error is printed as a JSON object.
    let errorsAsJSON: Bool
}

/// What a command runs with: the environment and the console (and, in the shell, its store).
struct CommandContext: Sendable {
    let environment: [String: String]
    var console: Console
    /// The store the shell keeps open, so that its queries share one main context.
    var sharedStore: RatesStore?

    init(environment: [String: String], console: Console, sharedStore: RatesStore? = nil) {
        self.environment = environment
        self.console = console
        self.sharedStore = sharedStore
    }

    /// The time it is: `ECBRATES_NOW` (ISO 8601, for tests and reproducible runs), else now.
    var now: Date {
        if let text = environment["ECBRATES_NOW"], let date = try? Date(text, strategy: .iso8601) { return date }
        return Date()
    }

    /// The store the command names (`--store`), or the default one.
    func storeURL(_ arguments: ParsedArguments) throws -> URL {
        if let path = try arguments[CommonOptions.store] { return URL(fileURLWithPath: path) }
        return RatesStore.defaultURL(environment: environment)
    }

    func usageError(_ error: UsageError) {
        printUsageError(error.message, command: error.command)
    }

    func printUsageError(_ message: String, command: String?) {
        let error = UsageError(message, command: command)
        var text = "\(console.errorLabel()) \(error.message)\n"
        if let name = error.command, let command = CLI.commands.first(where: { $0.name == name }) {
            text += "Usage: \(command.spec.usage)\n  See 'ecbrates \(name) --help' for more information.\n"
        } else {
            text += "Usage: \(CLI.usage)\n  See 'ecbrates --help' for more information.\n"
        }
        console.err(text)
    }

    func failure(_ error: any Error) {
        console.err("\(console.errorLabel()) \(ErrorText.describe(error))\n")
    }
}

/// Near matches for a mistyped word.
enum Suggestions {
    /// The candidate closest to `word` by edit distance, when it is close enough to be meant.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.sorted { $0.1 < $1.1 }
        guard let best = scored.first, best.1 <= max(1, word.count / 3) else { return nil }
        return best.0
    }

    /// The Levenshtein distance between two words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
