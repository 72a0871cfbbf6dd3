import ECBRates
import Foundation

/// A whole import of a file into a fresh store, in this process, with persistent history
/// recorded or not and either import method: what `scripts/bench` compares to learn what
/// recording the history costs (the command line always records it).
enum ImportBenchmark {
    static func run(file: String, storeURL: URL, history: Bool, method: ImportMethod) async throws -> [String: Double] {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storeURL.path + suffix) }
        let store = try RatesStore(url: storeURL, mergingIntoViewContext: false, recordingHistory: history)
        var options = ImportOptions()
        options.method = method
        guard let stream = InputStream(fileAtPath: file) else { throw BenchmarkError("cannot read \(file)") }
        let start = ContinuousClock.now
        let report = try await RateImporter(store: store, options: options).importRates(from: stream, source: file)
        let elapsed = ContinuousClock.now - start
        return [
            "seconds": Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            "rates": Double(report.inserted),
        ]
    }
}
