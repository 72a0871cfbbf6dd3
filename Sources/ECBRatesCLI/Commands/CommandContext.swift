import ECBRates
import Foundation

/// What a command runs with: the environment and the console (and, in the shell, its store).
struct CommandContext: Sendable {
    let environment: [String: String]
    var console: Console
    /// The store the shell keeps open, so that its queries share one main context.
    var sharedStore: RatesStore?
    /// The warnings the command gave (see ``warn(_:)``).
    let warnings = WarningLog()
    /// The shell's memory of the warnings it printed (nil outside a shell).
    var warningMemory: WarningMemory?

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
    func storeURL(_ path: String?) -> URL {
        storeLocation(path).url
    }

    /// The store the command names (`--store`), or the default one, and why (see
    /// ``StoreLocation``); in the shell, the shell's store.
    func storeLocation(_ path: String?) -> StoreLocation {
        let location = StoreLocation.resolve(option: path, environment: environment)
        if let shared = sharedStore, shared.url.standardizedFileURL != location.url.standardizedFileURL {
            return StoreLocation.resolve(option: shared.url.path, environment: environment)
        }
        return location
    }

    func usageError(_ error: UsageError) {
        printUsageError(error.message, command: error.command)
    }

    func printUsageError(_ message: String, command: String?) {
        let error = UsageError(message, command: command)
        var text = "\(console.errorLabel()) \(error.message)\n"
        if let name = error.command, let command = CLI.commands.first(where: { $0.name == name }) {
            text += "Usage: \(command.makeSpec().usage)\n  See 'ecbrates \(name) --help' for more information.\n"
        } else {
            text += "Usage: \(CLI.usage)\n  See 'ecbrates --help' for more information.\n"
        }
        console.err(text)
    }

    /// Prints `warning` on standard error, and keeps it for the answer's `warnings` (JSON).
    func warn(_ warning: AnswerWarning?) {
        warnings.warn(warning, on: console, memory: warningMemory)
    }

    func failure(_ error: any Error) {
        console.err("\(console.errorLabel()) \(FailureText.describe(error))\n")
    }
}
