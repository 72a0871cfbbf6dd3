import CSQLite
import Foundation

/// A prepared statement. It owns its `sqlite3_stmt` and finalizes it in `deinit`.
///
/// Used only by the thread that holds its connection (see ``SQLiteConnection``).
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let db: OpaquePointer

    init(db: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        try SQLiteError.check(rc, db, sql: sql)
        guard let statement else {
            throw SQLiteError(resultCode: SQLITE_MISUSE, message: "empty statement", sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.db = db
    }

    deinit { sqlite3_finalize(handle) }

    /// Readies the statement for another run: resets it and clears its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Readies the statement for another run that binds every parameter again.
    func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    // MARK: Binding (1-based indices, as SQLite counts)

    func bindNull(_ index: Int32) throws {
        try SQLiteError.check(sqlite3_bind_null(handle, index), db, sql: sql)
    }

    func bind(_ value: Int64, _ index: Int32) throws {
        try SQLiteError.check(sqlite3_bind_int64(handle, index, value), db, sql: sql)
    }

    func bind(_ value: Double, _ index: Int32) throws {
        try SQLiteError.check(sqlite3_bind_double(handle, index, value), db, sql: sql)
    }

    func bind(_ value: String, _ index: Int32) throws {
        var text = value
        let rc = text.withUTF8 { buffer -> Int32 in
            // An empty string still needs a non-null pointer, or SQLite binds NULL.
            guard buffer.count > 0 else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
            return buffer.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), csqlite_transient())
            }
        }
        try SQLiteError.check(rc, db, sql: sql)
    }

    func bind(_ value: Data, _ index: Int32) throws {
        let rc = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob(
                handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                csqlite_transient())
        }
        try SQLiteError.check(rc, db, sql: sql)
    }

    // MARK: Running

    /// Steps once: true when a row is ready, false when the statement is done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteError.make(rc, db, sql: sql)
    }

    /// Runs the statement to its end, ignoring any rows.
    func run() throws {
        while try step() {}
    }

    // MARK: Reading columns (0-based indices)

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func columnType(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func data(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}
