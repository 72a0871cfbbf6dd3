import Foundation

/// A generation of a store held open for the contexts pinned to it: a read transaction on a
/// connection of its own. SQLite's WAL mode keeps the pages that transaction sees until it ends,
/// so every fetch, count and fault through it reads the store as it was when it began, while
/// writers commit beside it. (The WAL cannot be checkpointed past a held generation, so it
/// grows while one is held; it ends when the last context moves off it.)
final class QueryGeneration: Sendable {
    /// The connection, used by one read at a time (contexts sharing a token may be on
    /// different queues).
    private let connection: Locked<SQLiteConnection>
    let store: PersistentStore
    /// The store's last history transaction as of this generation (0 without history).
    let historyTransactionNumber: Int64

    init(connection: SQLiteConnection, store: PersistentStore) throws {
        try connection.execute("BEGIN")
        // A read transaction starts at its first read: make it now.
        _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
        historyTransactionNumber =
            try HistoryLog.exists(on: connection) ? HistoryLog.currentTransactionNumber(on: connection) : 0
        self.connection = Locked(connection)
        self.store = store
    }

    deinit {
        connection.withLock { connection in
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
        }
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { try body($0) }
    }
}
