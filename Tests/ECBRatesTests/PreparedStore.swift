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
        try? FileManager.default.removeItem(at: url)
        do {
            let store = try RatesStore(url: url)
            _ = try await ImportJob(store: store, sources: [.file(FixturePaths.history.path)]).run()
        }
        return url
    }

    /// A copy of the prepared history store in `directory`.
    static func copy(into directory: TemporaryDirectory) async throws -> URL {
        let source = try await history.value
        let target = directory.file("rates.sqlite")
        // The prepared store's container is closed (its WAL checkpointed) once `history` ends.
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }
}
