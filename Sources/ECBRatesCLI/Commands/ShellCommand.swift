import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization

/// `ecbrates shell`: commands read from standard input, answered from one store whose main
/// context merges the imports the shell runs in the background.
struct ShellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "shell",
        abstract: "Read commands from standard input; imports run in the background while queries answer.",
        discussion: """
            Each line is a command as on the command line, without 'ecbrates' and --store: rate USD --date 2020-03-13,
            convert 100 USD JPY, import FILE, status, help, wait (for the imports to finish), quit. 'import' returns at
            once; queries answer from the main context, which merges every chunk the import stores, and every import
            another process commits (through the store's history). A prompt is shown only when standard input is a
            terminal.
            """,
        inShell: false)

    @Option(CommonOptions.store) var store: String?

    var runsOnMainThread: Bool { false }

    func run(_ context: CommandContext) async throws -> Int32 {
        // Other processes' imports (a cron job's, another shell's) reach the shell's main
        // context as its own do: through the store's history, merged on each remote change.
        let url = context.storeURL(self.store)
        let store: RatesStore
        do {
            store = try RatesStore(url: url, observingOtherProcesses: true)
        } catch  where FailureKind.isReadOnlyStore(error) {
            // Every other query reads a read-only store: so does the shell, without imports.
            store = try RatesStore.forQueries(at: url, observingOtherProcesses: true)
            context.console.err("note: \(url.path) is read-only: queries are answered, imports refused\n")
            if let reason = store.unseenChangesReason {
                context.console.err("note: \(reason) (other processes' imports will not show here)\n")
            }
        }
        let merger = try RemoteChangeMerger(store: store) { error in
            context.console.err("warning: another process's changes could not be merged: \(error)\n")
        } onMerge: { _ in
        }
        let shell = Shell(store: store, context: context)
        let status = await shell.run()
        withExtendedLifetime(merger) {}
        return status

    }
}
