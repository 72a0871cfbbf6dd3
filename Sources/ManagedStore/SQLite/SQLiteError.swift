import CSQLite

/// An error reported by SQLite, with its result code, its message and the SQL that failed.
///
/// Every SQLite call in ManagedStore goes through ``SQLiteError/check(_:_:sql:)``, so this is
/// the only error type that carries SQLite's own words.
///
/// ```swift
/// catch let error as SQLiteError where error.code == SQLITE_FULL { … }
/// ```
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_FULL`, `SQLITE_BUSY`, …).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_WRITE`, …).
    public let extendedCode: Int32
    /// SQLite's message for the failure.
    public let message: String
    /// The SQL being run, when there was one.
    public let sql: String?
    /// The database file, when the connection had one (not for in-memory stores).
    public let path: String?

    /// SQLite's name for the result code, such as `database or disk is full`.
    public var codeDescription: String { String(cString: sqlite3_errstr(extendedCode)) }

    /// True when the disk (or the store's size limit) is full.
    public var isDiskFull: Bool { code == SQLITE_FULL }
    /// True when another connection holds a lock that did not clear in time.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// True when the file is not an SQLite database.
    public var isNotADatabase: Bool { code == SQLITE_NOTADB }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }

    /// True when the store cannot be written: its file, or its file system, is read-only.
    public var isReadOnly: Bool { code == SQLITE_READONLY }

    /// What a failure means for the store, for code that explains it to people.
    public enum Kind: Sendable {
        case diskFull, readOnly, notADatabase, corrupt, cannotOpen, ioError, busy, constraint, other
    }

    /// The kind of failure, from the primary result code.
    public var kind: Kind {
        switch code {
        case SQLITE_FULL: .diskFull
        case SQLITE_READONLY: .readOnly
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_IOERR: .ioError
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_CONSTRAINT: .constraint
        default: .other
        }
    }

    init(code: Int32, extendedCode: Int32, message: String, sql: String?, path: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// Turns an SQLite result code into a thrown error; `SQLITE_OK`, `SQLITE_ROW` and
    /// `SQLITE_DONE` pass. The one place where SQLite's codes become Swift errors.
    static func check(_ resultCode: Int32, _ db: OpaquePointer?, sql: String? = nil) throws {
        switch resultCode {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return
        default:
            throw make(resultCode, db, sql: sql)
        }
    }

    /// The error for a failed result code, with the connection's message when it has one.
    static func make(_ resultCode: Int32, _ db: OpaquePointer?, sql: String? = nil) -> SQLiteError {
        let extended: Int32
        let message: String
        if let db, sqlite3_errcode(db) == resultCode & 0xff || sqlite3_extended_errcode(db) == resultCode {
            extended = sqlite3_extended_errcode(db)
            message = String(cString: sqlite3_errmsg(db))
        } else {
            extended = resultCode
            message = String(cString: sqlite3_errstr(resultCode))
        }
        let path = db.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return SQLiteError(code: resultCode & 0xff, extendedCode: extended, message: message, sql: sql, path: path)
    }
}
