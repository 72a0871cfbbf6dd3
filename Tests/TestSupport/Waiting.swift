import Foundation
import Synchronization

/// Waiting for a condition rather than for a fixed time: a test that sleeps "long enough" is
/// slow on a quiet machine and wrong on a busy one.
public enum Waiting {
    /// Checks `condition` every 2 ms until it holds or `timeout` passes; whether it held.
    @discardableResult
    public static func until(timeout: Duration = .seconds(30), _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            usleep(2_000)
        }
    }

    /// The same for async callers, sleeping the task instead of the thread between checks.
    @discardableResult
    public static func until(
        timeout: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation,
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try await condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Runs `body` on a thread of its own and waits for it up to `timeout`: its result, or nil
    /// when it did not finish in time (a deadlock; the thread is left behind, blocked).
    ///
    /// A guard against a hang that does not depend on Swift concurrency's pool, unlike a test's
    /// `.timeLimit`: on a 2-core machine that pool has two threads, and tests that wait for
    /// child processes can hold both for minutes, so a time limit can expire on a test that
    /// was never given a thread to run on.
    public static func finishes<Value: Sendable>(
        within timeout: Duration = .seconds(60), _ body: @escaping @Sendable () throws -> Value
    ) throws -> Value? {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.start()
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return try outcome.withLock { $0 }!.get()
    }

    /// Whether process `pid` has `path` open (read from /proc/PID/fd): how a test knows a child
    /// reached a file (a lock it waits on, a store it reads) without a fixed sleep.
    public static func process(_ pid: pid_t, hasOpen path: String) -> Bool {
        let directory = "/proc/\(pid)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        let wanted = URL(fileURLWithPath: path).standardizedFileURL.path
        return entries.contains { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry)) == wanted
        }
    }

    /// Whether process `pid` catches `signal` (its SigCgt in /proc/PID/status): how a test knows
    /// a child has installed its signal handler (an ignored signal, SigIgn, is lost instead).
    public static func process(_ pid: pid_t, catches signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let bit = UInt64(1) << UInt64(signal - 1)
        for line in status.split(separator: "\n") where line.hasPrefix("SigCgt:") {
            let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16) ?? 0
            if mask & bit != 0 { return true }
        }
        return false
    }
}
