import Dispatch
import ECBRates
import Foundation
import Synchronization

/// One import of a file with one of the shootout's context stacks, while a 1 ms heartbeat ticks
/// on the main queue: the import's total time, the main queue's time spent on it (merging, or
/// saving for the stacks whose main context is a parent), and the heartbeat's worst delay.
enum StackBenchmark {
    @MainActor
    static func run(file: String, storeURL: URL, stack: ContextStack, workers: Int?, chunkDays: Int?) async throws -> [String: Double] {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storeURL.path + suffix) }
        let store = try RatesStore(url: storeURL)
        var options = ImportOptions(stack: stack)
        if let workers { options.workers = workers }
        if let chunkDays { options.chunkDays = chunkDays }
        guard let stream = InputStream(fileAtPath: file) else { throw BenchmarkError("cannot open \(file)") }

        // The heartbeat's own jitter, with nothing else to do, for comparison.
        let idle = Heartbeat()
        try await Task.sleep(for: .milliseconds(200))
        let idleDelay = idle.stop()

        let heartbeat = Heartbeat()
        let start = ContinuousClock.now
        let report = try await RateImporter(store: store, options: options).importRates(from: stream, source: file)
        let seconds = (ContinuousClock.now - start).seconds
        let delay = heartbeat.stop()
        return ["seconds": seconds, "main_busy_seconds": report.mainQueueBusySeconds,
                "main_busy_percent": report.mainQueueBusySeconds / seconds * 100,
                "heartbeat_max_delay_ms": delay.max * 1000, "heartbeats": Double(delay.ticks),
                "idle_heartbeat_max_delay_ms": idleDelay.max * 1000, "rates": Double(report.inserted)]
    }
}

/// A timer firing every millisecond on the main queue, noting how late each tick came.
final class Heartbeat {
    private final class Ticks: Sendable {
        let state = Mutex((last: ContinuousClock.Instant?.none, worst: Duration.zero, ticks: 0))
    }
    private let timer: any DispatchSourceTimer
    private let ticks = Ticks()

    init(interval: Duration = .milliseconds(1)) {
        timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: .milliseconds(Int(interval.components.attoseconds / 1_000_000_000_000_000)),
                       leeway: .nanoseconds(0))
        timer.setEventHandler { [ticks] in
            let now = ContinuousClock.now
            ticks.state.withLock { state in
                if let last = state.last { state.worst = max(state.worst, now - last - interval) }
                state.last = now
                state.ticks += 1
            }
        }
        timer.resume()
    }

    /// Stops the timer; the worst delay of a tick past its due time, in seconds, and the ticks.
    func stop() -> (max: Double, ticks: Int) {
        timer.cancel()
        return ticks.state.withLock { ($0.worst.seconds, $0.ticks) }
    }
}
