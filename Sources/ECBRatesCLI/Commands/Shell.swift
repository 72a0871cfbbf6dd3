import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization

/// One shell session.
///
/// `@unchecked Sendable`: `imports` and `failures` are touched only under their `Mutex`es;
/// `editor` is set once, at the start of ``run()``, before any line is read; the rest is
/// immutable.
final class Shell: @unchecked Sendable {
    let store: RatesStore
    let context: CommandContext
    let interactive: Bool
    private let imports = Mutex<[Task<Void, Never>]>([])
    private let failures = Mutex(0)
    /// The warnings said in this session: a stale store's is said once.
    private let warningMemory = WarningMemory()
    /// libedit's line editing and history, at a terminal.
    private var editor: LineEditor?

    init(store: RatesStore, context: CommandContext) {
        self.store = store
        var shared = context
        shared.sharedStore = store
        self.context = shared
        interactive = isatty(STDIN_FILENO) != 0 && context.console.outputIsTerminal
    }

    /// The commands a shell line may start with: those of ``CLI/commands`` the shell runs.
    static var commands: [String] { CLI.commands.filter(\.inShell).map(\.name) }

    func run() async -> Int32 {
        let lines: AsyncStream<String>
        if interactive {
            switch LineEditor.load(environment: context.environment) {
            case .success(let loaded):
                editor = loaded
            case .failure(let unavailable):
                context.console.err(
                    "note: line editing and history need libedit (Debian: libedit2), which could not be loaded: \(unavailable.reason); reading plain lines\n"
                )
            }
        }
        if let editor {
            lines = editor.lines(prompt: "ecbrates> ")  // it shows the prompt itself
        } else {
            lines = Self.standardInputLines()
            prompt()
        }
        for await line in lines {
            let words: [String]
            do {
                words = try Self.split(line)
            } catch {
                context.console.err("\(context.console.errorLabel()) \(error)\n")
                prompt()
                continue
            }
            guard let first = words.first else {
                prompt()
                continue
            }
            // The shell has one store: a --store on a line was ignored, and the answer came
            // from another store than the one asked for.
            if words.contains(where: { $0 == "--store" || $0.hasPrefix("--store=") }) {
                context.console.err(
                    "\(context.console.errorLabel()) this shell answers from \(store.url.path); '--store' is given to 'ecbrates shell', not to a line\n"
                )
                failures.withLock { $0 += 1 }
                prompt()
                continue
            }
            switch first {
            case "quit", "exit":
                return await finish()
            case "help":
                context.console.out(help)
            case "wait":
                await waitForImports()
            case "import":
                startImport(Array(words.dropFirst()))
            default:
                guard Self.commands.contains(first) else {
                    context.console.err(
                        "\(context.console.errorLabel()) unknown command '\(first)'; 'help' lists them\n")
                    break
                }
                let status = await CLI.main(
                    words, environment: context.environment, console: context.console, sharedStore: store,
                    warningMemory: warningMemory)
                if status != ExitCode.success { failures.withLock { $0 += 1 } }
            }
            prompt()
        }
        return await finish()
    }

    /// The next prompt: libedit's, once the answer is out, or written here.
    private func prompt() {
        if let editor {
            editor.ready()
        } else if interactive {
            context.console.out("ecbrates> ")
        }
    }

    /// The commands the shell runs (but import, which has its own line), as wrapped lines of help:
    /// made from the command list, so that a new command is listed without another edit.
    static var commandLines: String {
        var lines: [String] = [], line = " "
        for name in commands where name != "import" {
            if line.count + name.count + 2 > 96 {
                lines.append(line + ",")
                line = " "
            }
            line += (line == " " ? " " : ", ") + name
        }
        return (lines + [line]).joined(separator: "\n")
    }

    private var help: String {
        """
        Commands (as on the command line, without 'ecbrates' and --store):
        \(Self.commandLines)
          import [<source> ...]   start an import in the background; queries keep answering
          wait                    wait for the imports to finish
          help                    show this
          quit                    wait for the imports, then leave

        """
    }

    /// Starts an import of `arguments` (as `ecbrates import` takes them) in the background.
    private func startImport(_ arguments: [String]) {
        let invocation: Invocation
        do {
            invocation = try Invocation(["import"] + arguments)
        } catch let error as UsageError {
            context.usageError(error)
            return
        } catch {
            return
        }
        guard case .run(let parsed) = invocation, let command = parsed.command as? ImportCommand else {
            // `import --help`: the help, at once.
            let store = self.store, context = self.context
            _ = Task {
                await CLI.main(
                    .success(invocation), environment: context.environment, console: context.console, sharedStore: store
                )
            }
            return
        }
        if let failure = parsed.failure {
            context.usageError(failure)
            return
        }
        let store = self.store, context = self.context
        let task = Task {
            let status = await CLI.main(
                .success(invocation), environment: context.environment, console: context.console, sharedStore: store)
            if status != ExitCode.success { self.failures.withLock { $0 += 1 } }
        }
        imports.withLock { $0.append(task) }
        let names = command.sourceArguments.isEmpty ? [command.source?.rawValue ?? "auto"] : command.sourceArguments
        context.console.out("import started in the background: \(names.joined(separator: " "))\n")
    }

    private func waitForImports() async {
        let running = imports.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in running { await task.value }
    }

    private func finish() async -> Int32 {
        await waitForImports()
        return failures.withLock { $0 } == 0 ? ExitCode.success : ExitCode.dataError
    }

    /// Lines of standard input, read on a thread of their own so that the main queue never waits
    /// for a line.
    static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.name = "ecbrates shell input"
            thread.start()
        }
    }

    /// Splits a line into words, as a shell does: spaces separate, quotes group.
    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var hasWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                hasWord = true
            } else if character == " " || character == "\t" {
                if hasWord { words.append(word) }
                word = ""
                hasWord = false
            } else if character == "#" && !hasWord {
                break
            } else {
                word.append(character)
                hasWord = true
            }
        }
        if quote != nil { throw UsageError("unclosed quote in: \(line)") }
        if hasWord { words.append(word) }
        return words
    }
}
