import CSQLite
import Foundation

/// One connection to an SQLite database. It owns the `sqlite3` handle and closes it in `deinit`.
///
/// `@unchecked Sendable`: a connection is used by one thread at a time. The coordinator hands
/// its writer out only under its writer lock and its readers only from its pool (under the
/// pool's lock), and takes each back when the call ends; nothing else holds a connection.
final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    struct OpenMode {
        var readOnly = false
        var create = false
        /// A URI filename (`file:…?mode=memory`).
        var uri = false
        /// Keep the `-wal` and `-shm` files when this connection closes last
        /// (`SQLITE_FCNTL_PERSIST_WAL`; see ``PersistentStoreDescription/keepsWriteAheadLogFiles``).
        var keepsWALFiles = false
    }

    init(path: String, mode: OpenMode) throws {
        var flags = mode.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if mode.create && !mode.readOnly { flags |= SQLITE_OPEN_CREATE }
        if mode.uri { flags |= SQLITE_OPEN_URI }
        // Each connection is confined to one thread at a time (see the type's comment), so
        // SQLite's own per-connection mutex is not needed.
        flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError.make(rc, db, sql: nil)
            sqlite3_close_v2(db)
            throw error
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        if mode.keepsWALFiles && !mode.readOnly {
            // SQLite reads this flag when the connection closes: the last read-write one to
            // close checkpoints the log and, with it set, keeps both files instead of deleting
            // them. A journal size limit makes that close truncate the log to zero bytes.
            var persist: Int32 = 1
            sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
            sqlite3_exec(db, "PRAGMA journal_size_limit = 67108864", nil, nil, nil)
        }
        Self.registerFunctions(on: db)
        SQLDebug.attach(to: db)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows of interest.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        sqlite3_free(errorMessage)
        try SQLiteError.check(rc, handle, sql: sql)
    }

    /// A prepared statement for `sql`, kept for reuse; it comes back reset with no bindings.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        let statement = try SQLiteStatement(db: handle, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql`, as an integer (nil when there is no row).
    func scalarInt(_ sql: String) throws -> Int64? {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The first column of the first row of `sql`, as text (nil when there is no row).
    func scalarText(_ sql: String) throws -> String? {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.text(0)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    func setBusyTimeout(_ seconds: Double) {
        busyTimeout = max(0, seconds)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
    }

    /// The busy timeout last set (seconds; 0 until one is).
    private(set) var busyTimeout: Double = 0

    /// True while a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
    /// Whether ``transaction(immediate:_:)`` inside an open transaction makes a savepoint (a
    /// staged migration's handlers save inside its transaction) rather than failing.
    var nestsTransactions = false

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` takes the write lock at once), committing
    /// when it returns and rolling back when it throws.
    func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        if nestsTransactions && isInTransaction {
            // Inside a staged migration's transaction: a savepoint, undone alone if it throws.
            try execute("SAVEPOINT managedstore_nested")
            do {
                let result = try body()
                try execute("RELEASE managedstore_nested")
                return result
            } catch {
                try? execute("ROLLBACK TO managedstore_nested")
                try? execute("RELEASE managedstore_nested")
                throw error
            }
        }
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Quotes an identifier for SQL: `"name"`, with inner quotes doubled.
    static func quote(_ identifier: String) -> String {
        identifier.contains("\"")
            ? "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : "\"" + identifier + "\""
    }
}
