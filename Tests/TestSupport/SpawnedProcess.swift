import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn` and reaped with `wait4`, so that the test learns
/// what Foundation's `Process` does not tell: the child's peak memory, and the signal that ended
/// it. Its output goes to files, read after it ends (no pipe to fill up and stall it).
public struct SpawnedProcess: Sendable {
    /// The exit status, when it exited.
    public let status: Int32?
    /// The signal that ended it, when one did.
    public let signal: Int32?
    /// Its peak resident set size, in MiB, as last read from /proc while it ran (a peak in its
    /// final two milliseconds can be missed).
    public let peakMegabytes: Double
    public let out: String
    public let err: String
    /// How long it ran, in seconds.
    public let seconds: Double
    /// The CPU time it used (user and system), in seconds.
    public let cpuSeconds: Double

    /// Runs `executable` to its end (killing it after `timeout` seconds).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        timeout: Double = 60
    ) throws -> SpawnedProcess {
        try Running(executable, arguments, environment: environment).wait(timeout: timeout)
    }

    /// A child that has been started and not yet reaped.
    public final class Running: @unchecked Sendable {  // immutable after init; wait() is called once
        /// The child's process ID.
        public let pid: pid_t
        private let started = ContinuousClock.now
        private let scratch = TemporaryDirectory()

        /// Starts `executable` with `arguments`, and `environment` added to this process's
        /// (without `ECBRATES_STORE`), in this process's directory (pass absolute paths), with
        /// standard input from /dev/null.
        public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, scratch.file("out").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, scratch.file("err").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // The child starts with no signal blocked, whatever the test's thread blocks, and
            // with SIGINT, SIGTERM and SIGHUP at their default action, whatever this process
            // inherited (a child of a background job starts with SIGINT ignored).
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, number) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            var merged = ProcessInfo.processInfo.environment
            merged["ECBRATES_STORE"] = nil
            for (key, value) in environment { merged[key] = value }
            let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
            let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
            self.pid = pid
        }

        /// What the child has written to standard output so far.
        public var outputSoFar: String {
            (try? String(contentsOf: scratch.file("out"), encoding: .utf8)) ?? ""
        }

        /// What the child has written to standard error so far.
        public var errorSoFar: String {
            (try? String(contentsOf: scratch.file("err"), encoding: .utf8)) ?? ""
        }

        /// True once the child has ended (it is a zombie, not yet reaped, or gone).
        public var hasEnded: Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return true }
            return stat[stat.index(close, offsetBy: 2)] == "Z"
        }

        /// The child's `VmHWM` (its peak resident set so far), in KiB; 0 once it has ended.
        private func highWaterKilobytes() -> Int {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }

        /// Sends `signal` to the child.
        public func kill(_ signal: Int32 = SIGKILL) {
            _ = Glibc.kill(pid, signal)
        }

        /// Waits for the child to end (killing it after `timeout` seconds) and reaps it.
        public func wait(timeout: Double = 60) throws -> SpawnedProcess {
            var status: Int32 = 0
            var usage = rusage()
            var peakKilobytes = 0
            // From this call: a child that has run long already (a server a test used for
            // minutes on a loaded machine) still gets its `timeout` to end.
            let deadline = ContinuousClock.now + .seconds(timeout)
            while true {
                // The peak is read while the child runs: its ru_maxrss would start from this
                // (large) process's high-water mark, which the kernel carries across exec.
                peakKilobytes = max(peakKilobytes, highWaterKilobytes())
                let reaped = wait4(pid, &status, WNOHANG, &usage)
                if reaped == pid { break }
                if reaped < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
                if ContinuousClock.now > deadline { kill() }
                usleep(2_000)
            }
            let exited = status & 0x7f == 0
            return SpawnedProcess(
                status: exited ? (status >> 8) & 0xff : nil, signal: exited ? nil : status & 0x7f,
                peakMegabytes: Double(peakKilobytes) / 1024,
                out: (try? String(contentsOfFile: scratch.file("out").path, encoding: .utf8)) ?? "",
                err: (try? String(contentsOfFile: scratch.file("err").path, encoding: .utf8)) ?? "",
                seconds: (ContinuousClock.now - started).seconds,
                cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
                    usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6)
        }
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension SpawnedProcess {
    /// Runs `executable` like ``run(_:_:environment:timeout:)``, and also returns its wall time
    /// as measured by a small python3 parent of it: a figure the test process's own scheduling
    /// cannot inflate (the suites run beside each other, and a starved test thread would see the
    /// child end late).
    public static func timed(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        timeout: Double = 60
    ) throws -> (run: SpawnedProcess, seconds: Double) {
        let scratch = TemporaryDirectory()
        let clock = scratch.file("seconds")
        let script =
            "import subprocess, sys, time\nstart = time.monotonic()\ncode = subprocess.run(sys.argv[2:]).returncode\n"
            + "open(sys.argv[1], 'w').write(str(time.monotonic() - start))\nsys.exit(code)\n"
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, clock.path, executable.path] + arguments,
            environment: environment, timeout: timeout)
        let seconds = Double((try? String(contentsOf: clock, encoding: .utf8)) ?? "") ?? .infinity
        return (run, seconds)
    }
}
