import CSQLite
import Foundation
import TestSupport

/// A store read with sqlite3's C API, read-only, not through ManagedStore: what the reliability
/// tests check must not depend on the code under test.
struct StoreProbe {
    let url: URL

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The rows `sql` returns, each column as text (nil for NULL).
    func rows(_ sql: String) throws -> [[String?]] {
        var db: OpaquePointer?
        let opened = sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil)
        defer { sqlite3_close(db) }
        guard opened == SQLITE_OK else {
            throw Failure(description: "cannot open \(url.path): \(String(cString: sqlite3_errstr(opened)))")
        }
        sqlite3_busy_timeout(db, 10_000)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
            }
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) }
                })
        }
        return rows
    }

    /// What `PRAGMA integrity_check` says ("ok" for a sound store).
    func integrityCheck() throws -> String {
        try rows("PRAGMA integrity_check").compactMap { $0.first ?? nil }.joined(separator: "\n")
    }

    /// The stored rates, by day: `YYYY-MM-DD` → {"CUR rate", …}.
    func ratesByDay() throws -> [String: Set<String>] {
        var days: [String: Set<String>] = [:]
        for row in try rows("SELECT date(date, 'unixepoch'), currencySymbol, exchangeRate FROM Eurofxrefhist") {
            days[row[0]!, default: []].insert("\(row[1]!) \(row[2]!)")
        }
        return days
    }

    /// The newest import run: its outcome and whether it has a finishing time.
    func latestRun() throws -> (outcome: String, finished: Bool)? {
        try rows("SELECT outcomeText, finishedAt FROM ImportRun ORDER BY startedAt DESC, Z_PK DESC LIMIT 1").first
            .map { ($0[0] ?? "", $0[1] != nil) }
    }

    /// The number of import runs recorded, or nil while the store or its run table is not there.
    func runCount() -> Int? {
        guard FileManager.default.fileExists(atPath: url.path),
            let row = try? rows("SELECT COUNT(*) FROM ImportRun").first, let text = row[0]
        else { return nil }
        return Int(text)
    }

    /// How many rates a fresh store holds so far (its highest row number: cheap to ask often);
    /// 0 while it has none or cannot be read.
    func storedRateCount() -> Int {
        guard let row = try? rows("SELECT MAX(Z_PK) FROM Eurofxrefhist").first, let text = row[0] else { return 0 }
        return Int(text) ?? 0
    }

    /// The names of the store's indexes.
    func indexNames() throws -> Set<String> {
        Set(try rows("SELECT name FROM sqlite_master WHERE type = 'index'").compactMap { $0[0] })
    }
}

/// The rates of an ECB file by day, as ``StoreProbe/ratesByDay()`` gives a store's.
func fileRatesByDay(_ url: URL) throws -> [String: Set<String>] {
    var days: [String: Set<String>] = [:]
    for line in try fileRates(url) {
        let day = String(line.prefix(10))
        days[day, default: []].insert(String(line.dropFirst(11)))
    }
    return days
}

/// The full history's rates by day, read once.
let historyByDay: [String: Set<String>] = (try? fileRatesByDay(FixturePaths.history)) ?? [:]
