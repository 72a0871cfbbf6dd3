import ECBRates
import Foundation

/// Batch conversion in process: the rows of a CSV converted by ``BatchConverter`` on the main
/// context of a store holding the history, the output counted and dropped. Rows per second,
/// the whole run (reading, parsing, converting, formatting) included.
enum ConvertBenchmark {
    static func run(storeURL: URL, input: String, now: Date) async throws -> [String: Double] {
        let store = try RatesStore(url: storeURL, readOnly: true)
        let descriptor = open(input, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchmarkError("cannot open \(input)") }
        defer { close(descriptor) }
        let bytes = ByteCounter()
        let start = ContinuousClock.now
        let summary = try await BatchConverter(context: store.viewContext, skipBadRows: true, now: { now })
            .convert(CSVRecordReader(descriptor: descriptor, name: input), name: input) { bytes.add($0.utf8.count) }
        let seconds = (ContinuousClock.now - start).seconds
        return [
            "rows": Double(summary.converted), "skipped": Double(summary.skippedCount), "seconds": seconds,
            "rows_per_second": Double(summary.converted + summary.skippedCount) / seconds,
            "output_bytes": Double(bytes.total),
        ]
    }
}

/// Bytes written, counted.
///
/// `@unchecked Sendable`: `total` is guarded by `lock`.
final class ByteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ bytes: Int) { lock.withLock { count += bytes } }
    var total: Int { lock.withLock { count } }
}
