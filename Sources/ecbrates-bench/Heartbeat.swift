import Dispatch
import Synchronization

/// A timer firing every millisecond on the main queue, noting how late each tick came.
final class Heartbeat {
    private final class Ticks: Sendable {
        let state = Mutex((last: ContinuousClock.Instant?.none, worst: Duration.zero, ticks: 0))
    }
    private let timer: any DispatchSourceTimer
    private let ticks = Ticks()

    init(interval: Duration = .milliseconds(1)) {
        timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(
            deadline: .now(), repeating: .milliseconds(Int(interval.components.attoseconds / 1_000_000_000_000_000)),
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
