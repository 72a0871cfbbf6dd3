import Dispatch
import Foundation

/// Watches a store file for commits by any connection (another process, another coordinator,
/// this coordinator's writer) and reports each with the history token after it.
///
/// It keeps one read connection of its own and asks it SQLite's `PRAGMA data_version` every
/// `interval` seconds: a number that changes when another connection commits, read from the
/// WAL index in shared memory (a few microseconds, no file read), so an idle store costs next to
/// nothing to watch. inotify on the WAL would wake sooner, but sees neither a checkpoint's
/// truncation nor writes by processes in other mount namespaces reliably; polling a counter
/// SQLite keeps for exactly this purpose does.
///
/// `@unchecked Sendable`: the connection and `lastVersion` are touched only by the timer's
/// handler, which runs on the monitor's serial `queue`; `cancel()` only cancels the timer.
final class RemoteChangeMonitor: @unchecked Sendable {
    private let queue = DispatchQueue(label: "ManagedStore.remoteChanges", qos: .utility)
    private let timer: DispatchSourceTimer
    private let connection: SQLiteConnection
    private var lastVersion: Int64
    private let storeIdentifier: String

    /// Starts watching the store at `path`; `report` is called on the monitor's queue with the
    /// history token after each change seen (transaction 0 without history).
    init(
        path: String, storeIdentifier: String, interval: TimeInterval,
        report: @escaping @Sendable (PersistentHistoryToken) -> Void
    ) throws {
        connection = try SQLiteConnection(path: path, mode: .init(readOnly: true, uri: false))
        connection.setBusyTimeout(1)
        self.storeIdentifier = storeIdentifier
        lastVersion = try connection.scalarInt("PRAGMA data_version") ?? 0
        timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(max(0.001, interval) * 1_000_000_000)
        // A tenth of the interval of leeway lets the kernel batch the wake-ups.
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { [weak self] in
            if let token = self?.poll() { report(token) }
        }
        timer.resume()
    }

    /// Stops watching. (It does not wait for a poll under way: the coordinator may be let go
    /// of on the monitor's own queue, and a report after it is gone finds no coordinator.)
    func cancel() {
        timer.cancel()
    }

    /// The token after the latest commit, if the store changed since the last look.
    private func poll() -> PersistentHistoryToken? {
        guard let version = try? connection.scalarInt("PRAGMA data_version"), version != lastVersion else { return nil }
        lastVersion = version
        let number =
            (try? HistoryLog.exists(on: connection)) == true
            ? (try? HistoryLog.currentTransactionNumber(on: connection)) ?? 0 : 0
        return PersistentHistoryToken(transactionNumber: number, storeIdentifier: storeIdentifier)
    }
}
