import CEdit
import ECBRates
import Foundation

/// The shell's input at a terminal: libedit's line editing (arrows, Ctrl-A/E/K, …) and history
/// (up and down, kept in a file across sessions), through its readline-compatible functions.
///
/// libedit is loaded with dlopen by ``load()``; when it cannot be (no libedit2), the shell says
/// so and reads plain lines.
///
/// `@unchecked Sendable`: `api` is written once, in ``load()``, before the reading thread starts,
/// and libedit is then called only on that thread; `turn` is a semaphore.
final class LineEditor: @unchecked Sendable {
    private var api = cedit_api()
    private let turn = DispatchSemaphore(value: 0)
    /// The history file: `$XDG_STATE_HOME/ecbrates/shell_history`, else
    /// `~/.local/state/ecbrates/shell_history`.
    let historyFile: URL

    private init(historyFile: URL) {
        self.historyFile = historyFile
    }

    /// libedit, loaded; or the loader's words for why it is not there.
    static func load(environment: [String: String]) -> Result<LineEditor, LineEditorUnavailable> {
        let editor = LineEditor(historyFile: historyFile(environment: environment))
        if let failure = cedit_load(&editor.api) {
            return .failure(LineEditorUnavailable(reason: String(cString: failure)))
        }
        return .success(editor)
    }

    /// Where the history is kept (the XDG Base Directory's state home).
    static func historyFile(environment: [String: String]) -> URL {
        RatesStore.baseDirectory("XDG_STATE_HOME", else: ".local/state", environment: environment)
            .appendingPathComponent("ecbrates/shell_history")
    }

    /// The lines typed, each read after `prompt` on a thread of its own; the next prompt waits
    /// for ``ready()``, so that an answer is printed before it. Each line that is not blank goes
    /// into the history, which is written to ``historyFile`` as it grows (at most 1,000 lines).
    func lines(prompt: String) -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread { [self] in
                try? FileManager.default.createDirectory(
                    at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                api.stifle_history(1_000)
                _ = api.read_history(historyFile.path)
                while let pointer = api.readline(prompt) {
                    let line = String(cString: pointer)
                    cedit_free(pointer)
                    if !line.allSatisfy(\.isWhitespace) {
                        _ = api.add_history(line)
                        _ = api.write_history(historyFile.path)
                    }
                    continuation.yield(line)
                    turn.wait()
                }
                continuation.finish()
            }
            thread.name = "ecbrates shell line editor"
            thread.start()
        }
    }

    /// The shell has answered the last line: the next prompt may be shown.
    func ready() { turn.signal() }
}

/// libedit could not be loaded: the loader's words.
struct LineEditorUnavailable: Error {
    let reason: String
}
