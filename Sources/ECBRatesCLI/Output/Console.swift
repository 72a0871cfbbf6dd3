import Foundation
import Synchronization

/// Where a command writes: results to standard output; progress, warnings and errors to
/// standard error. Tests capture both.
///
/// `Sendable`: the captured text is in a `Mutex`; the rest is immutable.
package final class Console: Sendable {
    /// True when standard output is a terminal (aligned text for people) .
    package let outputIsTerminal: Bool
    /// True when standard error is a terminal: progress bars are drawn only then.
    package let errorIsTerminal: Bool
    /// True when colour may be used on standard error (a terminal, and no `NO_COLOR`).
    package let colors: Bool
    private let isCapturing: Bool
    /// With `--quiet`: results and notes are dropped; warnings and errors still go out.
    package let isQuiet: Bool
    private let storage: Storage

    /// What a console and its quiet twin share.
    private final class Storage: Sendable {
        let captured = Mutex<(out: String, err: String)>(("", ""))
        /// The first failed write to standard output (its `errno`), if any.
        let outputFailure = Mutex<Int32?>(nil)
        /// Applied once, to the first text written to standard output.
        let firstOutputStamp = Mutex<(@Sendable (String) -> String)?>(nil)
    }

    /// Rewrites the first text written to standard output with `stamp` (an answer "as of" a
    /// moment says so in its first line, or its JSON object's first key).
    func stampFirstOutput(_ stamp: @escaping @Sendable (String) -> String) {
        storage.firstOutputStamp.withLock { $0 = stamp }
    }

    /// The process's own standard output and error.
    package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> Console {
        let errorIsTerminal = isatty(STDERR_FILENO) != 0
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Console(
            outputIsTerminal: isatty(STDOUT_FILENO) != 0, errorIsTerminal: errorIsTerminal,
            colors: errorIsTerminal && !noColor && environment["TERM"] != "dumb", capturing: false)
    }

    /// A console that keeps what is written, for tests.
    package static func capturing() -> Console {
        Console(outputIsTerminal: false, errorIsTerminal: false, colors: false, capturing: true)
    }

    private init(
        outputIsTerminal: Bool, errorIsTerminal: Bool, colors: Bool, capturing: Bool, quiet: Bool = false,
        storage: Storage = Storage()
    ) {
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.colors = colors
        self.isCapturing = capturing
        self.isQuiet = quiet
        self.storage = storage
    }

    /// This console, quiet: nothing on standard output, no notes; warnings and errors as before.
    func quieted() -> Console {
        Console(
            outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal, colors: colors,
            capturing: isCapturing,
            quiet: true, storage: storage)
    }

    /// Writes `text`, which says what a command did ("wrote 30 lines to …"), to standard error,
    /// unless quiet.
    func note(_ text: String) {
        if !isQuiet { err(text) }
    }

    /// Writes `text` to standard output.
    package func out(_ text: String) {
        if isQuiet { return }
        data(text)
    }

    /// Writes `text`, the data a command was asked for (an export to standard output), to
    /// standard output even when quiet: `--quiet` silences reports and notes, never the data.
    func data(_ text: String) {
        let stamp = storage.firstOutputStamp.withLock { stamp in
            defer { stamp = nil }; return stamp
        }
        let text = stamp.map { $0(text) } ?? text
        if isCapturing {
            storage.captured.withLock { $0.out += text }
        } else if let code = write(text, to: STDOUT_FILENO) {
            storage.outputFailure.withLock { $0 = $0 ?? code }
        }
    }

    /// Writes `text` to standard error.
    package func err(_ text: String) {
        if isCapturing { storage.captured.withLock { $0.err += text } } else { _ = write(text, to: STDERR_FILENO) }
    }

    /// What was written to standard output and error (capturing consoles only).
    package var capturedOutput: (out: String, err: String) { storage.captured.withLock { $0 } }

    /// Throws ``OutputError`` when a write to standard output has failed (a full disk behind a
    /// redirection, `/dev/full`, a closed pipe with SIGPIPE ignored): a result that did not
    /// reach its reader is a failure, never exit 0.
    func checkOutput() throws {
        if let code = storage.outputFailure.withLock({ $0 }) { throw OutputError(path: nil, errno: code) }
    }

    /// `Error:` in bold red when colour is on.
    func errorLabel() -> String { colors ? "\u{1B}[1;31mError:\u{1B}[0m" : "Error:" }

    /// Writes all of `text`; the `errno` of a failed write, or nil.
    private func write(_ text: String, to descriptor: Int32) -> Int32? {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return written < 0 ? errno : EIO
            }
            offset += written
        }
        bytes.removeAll()
        return nil
    }
}
