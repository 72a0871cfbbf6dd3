import Foundation
import Synchronization

/// Lines written to a file or to standard error by a thread of its own, from a bounded buffer, so
/// that whoever logs (a thread answering a request) never waits for the log's reader.
///
/// ``write(_:)`` appends a line to the buffer and returns; the writer thread takes all that is
/// buffered and writes it in one `write(2)`, every ``flushInterval`` or as soon as 64 KiB wait
/// (a busy server's lines are written in batches, with no wake-up per line). When the sink stops taking bytes (a pipe nobody
/// reads, a stalled journald, a full disk), the buffer fills and further lines are **dropped and
/// counted** (``Counts/dropped``), never waited for; once a write goes through again, one line on
/// standard error says how many were lost. This is HAProxy's policy for its logs (never block on
/// a log; drop and count) with Envoy's shape for file logs (a flushing thread beside the request
/// threads, reopened on a signal): nginx writes its access log on the worker's own event loop,
/// where a stalled file stalls the worker.
///
/// ``reopen()`` (SIGHUP, after logrotate moves the file) makes the writer thread open the path
/// again, after writing what was buffered before to the file as it was: no line is lost by a move.
///
/// `@unchecked Sendable`: the buffer and counts are in `state` (a `Mutex`); `descriptor` is read
/// and written by the writer thread alone (and by `init`, before the thread starts); the rest is
/// immutable.
package final class LogWriter: @unchecked Sendable {
    /// Where the lines go.
    package enum Destination: Sendable, Equatable {
        /// Standard error (descriptor 2), as it is.
        case standardError
        /// A file, opened for appending (made with mode 0640 if missing), reopened by ``reopen()``.
        case file(String)
    }

    /// What became of the lines so far.
    package struct Counts: Sendable, Equatable {
        /// Lines written whole to the sink.
        package var written = 0
        /// Lines dropped: the buffer was full (the sink did not take them in time), or a write failed.
        package var dropped = 0
    }

    /// The buffer's bound, by default: 1 MiB, about 10,000 access-log lines (a fraction of a
    /// second of a busy server, many seconds of a normal one).
    package static let defaultCapacity = 1 << 20
    /// How long a line may wait in the buffer: a line is on its way within this.
    package static let flushInterval = 0.05
    /// Buffered bytes that wake the writer before the interval is over.
    static let flushBytes = 64 << 10

    private struct State {
        var pending: [UInt8] = []
        var pendingLines = 0
        var counts = Counts()
        /// Dropped since the last notice.
        var droppedUnreported = 0
        var reopenRequested = false
        var stopping = false
        var writerIdle = false
        var finished = false
    }

    /// Where the lines go.
    package let destination: Destination
    /// What the notices call this log ("access log").
    private let name: String
    private let capacity: Int
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// Where the notices of dropped lines and failed reopens go (standard error, written at once
    /// by the writer thread, which may wait there: nothing else waits for it).
    private let noticeDescriptor: Int32 = STDERR_FILENO
    private var descriptor: Int32
    private let clock: @Sendable () -> Date

    /// A writer to `destination` holding at most `capacity` bytes of lines not yet written; the
    /// file is opened now (an error names it when it cannot be).
    package init(
        _ destination: Destination, name: String = "access log", capacity: Int = LogWriter.defaultCapacity,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.destination = destination
        self.name = name
        self.capacity = max(capacity, 1)
        self.clock = clock
        switch destination {
        case .standardError: descriptor = STDERR_FILENO
        case .file(let path):
            descriptor = Self.open(path)
            if descriptor < 0 { throw LogWriterError(path: path, errno: errno) }
        }
        let thread = Thread(block: { [self] in run() })
        thread.name = "ecbrates.log"
        thread.start()
    }

    /// Buffers `line` (which ends with a newline) for the writer thread; drops it, counted, when
    /// the buffer is full. Never waits for the sink.
    package func write(_ line: String) {
        var wakeWriter = false
        let utf8 = line.utf8
        state.withLock { state in
            guard !state.finished, state.pending.count + utf8.count <= capacity else {
                state.counts.dropped += 1
                state.droppedUnreported += 1
                return
            }
            state.pending.append(contentsOf: utf8)
            state.pendingLines += 1
            if state.writerIdle && state.pending.count >= Self.flushBytes {
                state.writerIdle = false
                wakeWriter = true
            }
        }
        if wakeWriter { wake.signal() }
    }

    /// Asks the writer thread to open the file again (after logrotate moved it); what was buffered
    /// before goes to the file as it was. Nothing to do for standard error.
    package func reopen() {
        guard case .file = destination else { return }
        signalWriter { $0.reopenRequested = true }
    }

    /// What became of the lines so far.
    package var counts: Counts { state.withLock { $0.counts } }

    /// Writes what is buffered and stops the writer thread, waiting at most `timeout`; true when
    /// all was written. A sink that still does not take bytes is given up on: its lines are counted
    /// as dropped, and the thread (blocked in `write(2)`) ends with the process. Lines written
    /// after this are dropped.
    @discardableResult
    package func finish(within timeout: Duration = .seconds(1)) -> Bool {
        signalWriter { $0.stopping = true }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let ended = done.wait(timeout: .now() + seconds) == .success
        if !ended {
            state.withLock { state in
                state.finished = true
                state.counts.dropped += state.pendingLines
                state.pending = []
                state.pendingLines = 0
            }
        }
        return ended
    }

    /// Changes the state and wakes the writer thread if it waits.
    private func signalWriter(_ change: (inout State) -> Void) {
        let wakeWriter = state.withLock { state in
            change(&state)
            defer { state.writerIdle = false }
            return state.writerIdle
        }
        if wakeWriter { wake.signal() }
    }

    /// The writer thread: takes the buffer, writes it, until stopped. Lost lines (dropped while
    /// the buffer was full, or in a failed write) are reported once the sink takes a write again;
    /// a failing sink is reported once, when it begins to fail.
    private func run() {
        var lost = 0
        var failing = false
        while true {
            let (batch, lines, reopening, stopping, dropped) = state.withLock { state in
                let taken = (
                    state.pending, state.pendingLines, state.reopenRequested, state.stopping, state.droppedUnreported
                )
                state.pending = []
                state.pendingLines = 0
                state.reopenRequested = false
                state.droppedUnreported = 0
                if taken.0.isEmpty && !taken.2 && !taken.3 { state.writerIdle = true }
                return taken
            }
            lost += dropped
            if batch.isEmpty && !reopening && !stopping {
                _ = wake.wait(timeout: .now() + Self.flushInterval)
                continue
            }
            if !batch.isEmpty {
                if let failure = Self.writeAll(batch, to: descriptor) {
                    state.withLock { $0.counts.dropped += lines }
                    lost += lines
                    if !failing {
                        notice("a write failed (\(String(cString: strerror(failure)))); dropping lines until one goes through")
                    }
                    failing = true
                } else {
                    state.withLock { $0.counts.written += lines }
                    if lost > 0 {
                        notice("\(lost) line\(lost == 1 ? "" : "s") dropped: \(failing ? "writes failed" : "the log's reader did not keep up")")
                    }
                    lost = 0
                    failing = false
                }
            }
            if reopening, case .file(let path) = destination { reopenFile(path) }
            if stopping && state.withLock({ $0.pending.isEmpty && $0.droppedUnreported == 0 }) {
                if lost > 0 { notice("\(lost) line\(lost == 1 ? "" : "s") dropped") }
                state.withLock { $0.finished = true }
                if descriptor != STDERR_FILENO { close(descriptor) }
                done.signal()
                return
            }
        }
    }

    /// Opens `path` again; on failure the old file goes on being written, and a notice says why.
    private func reopenFile(_ path: String) {
        let opened = Self.open(path)
        if opened < 0 {
            let code = errno
            notice("cannot reopen \(path) (\(String(cString: strerror(code)))); writing on to the file as it was")
            return
        }
        close(descriptor)
        descriptor = opened
    }

    /// Writes `text` (one line) to standard error, for the operator: at once, from this thread.
    private func notice(_ text: String) {
        var what = name
        if case .file(let path) = destination { what += " \(path)" }
        _ = Self.writeAll(Array("\(AccessLog.timestamp(clock())) \(what): \(text)\n".utf8), to: noticeDescriptor)
    }

    /// Opens `path` for appending (made 0640 if missing); -1 with `errno` on failure.
    private static func open(_ path: String) -> Int32 {
        Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
    }

    /// Writes all of `bytes`; the `errno` of a failed write, or nil.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return written < 0 ? errno : EIO }
            offset += written
        }
        return nil
    }
}

/// An access log that cannot be opened: its path and the system's reason.
package struct LogWriterError: Error, CustomStringConvertible {
    /// The file.
    package let path: String
    /// `errno` of the failed open.
    package let errno: Int32
    /// "cannot open the access log /var/log/… (Permission denied)".
    package var description: String { "cannot open the access log \(path) (\(String(cString: strerror(errno))))" }
}
