import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport

/// A store holding the full history, imported once per test run; each test works on a copy.
enum PreparedStore {
    private static let history: Task<URL, any Error> = Task {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ecbrates-prepared-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("history.sqlite")
        // A directory left by an earlier process with this process ID may hold a WAL, which
        // SQLite would replay into the new store.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        do {
            let store = try RatesStore(url: url)
            _ = try await ImportJob(store: store, sources: [.file(FixturePaths.history.path)]).run()
            // The view context's merges of the run log's saves hold the store open until they ran.
            await store.viewContext.perform {}
        }
        return url
    }

    /// A copy of the prepared history store in `directory`.
    static func copy(into directory: TemporaryDirectory) async throws -> URL {
        let source = try await history.value
        let target = directory.file("rates.sqlite")
        // Copied by SQLite (`VACUUM INTO`), which reads one consistent state: a copy of the file
        // could miss what is still in its WAL, or catch the file mid-checkpoint while the import's
        // last connection closes.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "sqlite3", "-cmd", ".timeout 10000", source.path,
            "VACUUM INTO '\(target.path.replacingOccurrences(of: "'", with: "''"))'",
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return target
    }
}
