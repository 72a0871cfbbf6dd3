import CSQLite
import Foundation

/// `MANAGEDSTORE_SQL_DEBUG=1` in the environment (read once, at first use) prints every
/// statement a connection runs to standard error, its parameters bound in, one line each, as
/// `ManagedStore: sql: SELECT …`: what Core Data's `-com.apple.CoreData.SQLDebug 1` prints as
/// `CoreData: sql: SELECT …`. A statement a trigger runs is not printed (Core Data's neither).
enum SQLDebug {
    static let isEnabled: Bool = ProcessEnvironment.value("MANAGEDSTORE_SQL_DEBUG") == "1"

    /// Starts printing the statements `db` runs, when enabled.
    static func attach(to db: OpaquePointer) {
        guard isEnabled else { return }
        sqlite3_trace_v2(
            db, UInt32(SQLITE_TRACE_STMT),
            { _, _, statement, unexpanded in
                // The unexpanded text of a trigger's statement begins with "--".
                if let unexpanded, unexpanded.assumingMemoryBound(to: CChar.self).pointee == CChar(UInt8(ascii: "-")) {
                    return 0
                }
                guard let statement, let expanded = sqlite3_expanded_sql(OpaquePointer(statement)) else { return 0 }
                defer { sqlite3_free(expanded) }
                // One write(2) a line: lines from several threads never interleave.
                let line = Array("ManagedStore: sql: \(String(cString: expanded))\n".utf8)
                _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
                return 0
            }, nil)
    }
}
