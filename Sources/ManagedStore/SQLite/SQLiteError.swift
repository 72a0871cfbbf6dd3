import CSQLite

/// An error reported by SQLite, with its result code, its message and the SQL that failed.
///
/// Every SQLite call in ManagedStore goes through ``SQLiteError/check(_:_:sql:)``, so this is
/// the only error type that carries SQLite's own words. Its code is tested one way, by pattern
/// matching a ``ResultCode`` (an extended code matches its primary one):
///
/// ```swift
/// switch error.resultCode {
/// case .busy, .locked: …        // SQLITE_BUSY_SNAPSHOT matches .busy
/// case .full: …
/// default: …
/// }
/// catch let error as SQLiteError where SQLiteError.ResultCode.constraint ~= error.resultCode { … }
/// ```
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// A SQLite result code, primary (`SQLITE_BUSY`) or extended (`SQLITE_BUSY_SNAPSHOT`), that
    /// pattern-matches: a primary code as a pattern matches every extended code of its kind.
    public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code, as SQLite's C API gives it.
        public let rawValue: Int32

        /// The code `rawValue`.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// The primary code (the low byte) of an extended code; a primary code itself.
        public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xff) }

        /// SQLite's name for the code, such as `database or disk is full`.
        public var description: String { String(cString: sqlite3_errstr(rawValue)) }

        /// True when `pattern` is `code`, or `code`'s primary code (`case .busy:` matches
        /// `SQLITE_BUSY_SNAPSHOT`).
        public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
            pattern == code || pattern == code.primary
        }

        /// Another connection holds a lock that did not clear in time.
        public static let busy = ResultCode(rawValue: SQLITE_BUSY)
        /// A table in the same connection (or shared cache) is locked.
        public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
        /// The disk (or the store's size limit) is full.
        public static let full = ResultCode(rawValue: SQLITE_FULL)
        /// The file, or its file system, is read-only.
        public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
        /// The file is not an SQLite database.
        public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
        /// The database file is damaged.
        public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
        /// The file cannot be opened.
        public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
        /// The operating system reported an I/O error.
        public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
        /// A constraint (uniqueness, NOT NULL, a check) failed.
        public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    }

    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_WRITE`, …), which
    /// pattern-matches its primary code too.
    public let resultCode: ResultCode
    /// SQLite's message for the failure.
    public let message: String
    /// The SQL being run, when there was one.
    public let sql: String?
    /// The database file, when the connection had one (not for in-memory stores).
    public let path: String?

    public var description: String {
        var text = "SQLite error \(resultCode.rawValue): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }

    init(resultCode: Int32, message: String, sql: String?, path: String? = nil) {
        self.resultCode = ResultCode(rawValue: resultCode)
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
        let path = db.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        return SQLiteError(resultCode: extended, message: message, sql: sql, path: path)
    }
}
