import EurofxrefFeed
import Foundation

/// Reads an ECB file with the streaming reader and reports its speed and the process's peak
/// memory (the whole process: `scripts/bench` compares the peaks of two files).
enum ParseBenchmark {
    static func run(path: String) throws -> [String: Double] {
        guard let stream = InputStream(fileAtPath: path) else { throw BenchmarkError("cannot open \(path)") }
        let bytes = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
        let start = ContinuousClock.now
        var records = 0
        let summary = try EurofxrefReader(source: (path as NSString).lastPathComponent).read(stream) { chunk in
            records += chunk.records.count
        }
        let seconds = (ContinuousClock.now - start).seconds
        guard records == summary.rates else { throw BenchmarkError("handed on \(records) of \(summary.rates) rates") }
        return [
            "seconds": seconds, "megabytes_per_second": bytes / 1_048_576 / seconds, "rates": Double(summary.rates),
            "days": Double(summary.days), "peak_rss_megabytes": peakResidentMegabytes(),
        ]
    }

    /// The process's peak resident set size so far, in MiB.
    static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
