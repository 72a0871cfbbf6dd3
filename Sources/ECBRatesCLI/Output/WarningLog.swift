import ECBRates
import Synchronization

/// The warnings a command gave, in order: each printed on standard error as it comes
/// (`warning: …`), and kept for the answer's `warnings` array under `--format json`.
///
/// `Sendable` through its `Mutex`.
final class WarningLog: Sendable {
    private let given = Mutex<[AnswerWarning]>([])

    /// The warnings given so far.
    var all: [AnswerWarning] { given.withLock { $0 } }

    /// Prints `warning` on `console`'s standard error and keeps it; a stale store's warning
    /// already said in this shell session (`memory`) is kept but not printed again.
    func warn(_ warning: AnswerWarning?, on console: Console, memory: WarningMemory? = nil) {
        guard let warning else { return }
        given.withLock { $0.append(warning) }
        if let memory, warning.code == "stale-store", !memory.isFirst(warning.message) { return }
        console.err("warning: \(warning.message)\n")
    }
}
