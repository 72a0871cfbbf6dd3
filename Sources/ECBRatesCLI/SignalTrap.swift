import ECBRates
import Foundation
import Synchronization

/// The write end of the pipe that ``SignalTrap``'s handler writes a caught signal's number to
/// (-1 while no trap is set). Guarded by order, not a lock: it is set before the handler is
/// installed and never changed after, and the handler only reads it. A global with a literal
/// initial value is initialised statically, so the handler reads it without Swift's
/// lazy-initialisation lock, which is not async-signal-safe.
nonisolated(unsafe) private var trapPipeWrite: Int32 = -1

/// SIGINT and SIGTERM for the whole process, from its first instant (and SIGHUP while a command
/// asks for it, ``onHangup(_:)``): a command that stops
/// politely (an import, `watch`, `serve`) turns the first one into a stop (``ImportInterruption``)
/// and lets a second one end the process at once, as the default action does (a second within
/// 20 ms is the same request: see ``sameRequestWindow``); every other command has the default
/// action.
///
/// The trap is armed by ``CLI/start(_:)`` before the arguments are even parsed, so that a
/// signal in the start-up window (parsing, opening or making the store, taking the lock) is
/// not lost to the default action: it is kept as pending until the command says how it takes
/// signals, and then either stops it politely at once (``attach(_:)``) or ends the process as
/// the default action would (``useDefaultAction()``).
///
/// A `sigaction` handler, process-wide: whichever thread the kernel picks (libmicrohttpd's,
/// an import worker's, a Dispatch thread), the signal is caught. (Dispatch's signal sources
/// need the signal ignored, and a signal the kernel delivered to a thread that did not block it
/// was then discarded.) The handler writes one byte to a pipe, which is async-signal-safe; a
/// thread of its own reads the pipe and does the rest.
///
/// `@unchecked Sendable`: its one mutable state, `mode`, is guarded by its `Mutex`; the reading
/// thread touches only the read end it was given, `mode`, and `signal(2)`/`raise(3)`.
final class SignalTrap: @unchecked Sendable {
    /// What a caught signal does now.
    private enum Mode {
        /// The command has not said yet: the first signal waits here.
        case startingUp(pending: Int32?)
        /// The first signal stops this politely; the next ends the process. `caught` is when
        /// the first came (nanoseconds of the monotonic clock), nil before it.
        case attached(ImportInterruption, caught: UInt64?)
        /// The default action (the handlers are gone; a signal already in the pipe is raised).
        case defaultAction
    }

    private let mode = Mutex<Mode>(.startingUp(pending: nil))
    /// True when armed for the whole process by ``CLI/start(_:)``: a command's
    /// ``Attachment/release()`` then leaves the trap in place until the process exits, so that
    /// a signal after the command's work (while it prints, while it exits) is absorbed rather
    /// than killing a process that has done everything it should.
    private let processWide: Bool

    /// The process's trap, once armed.
    private static let shared = Mutex<SignalTrap?>(nil)

    /// Arms the process's trap, from ``CLI/start(_:)``: from now on SIGINT and SIGTERM are
    /// caught, and one is kept until the command says how it takes them.
    static func armForProcess() {
        shared.withLock { trap in
            if trap == nil { trap = SignalTrap(processWide: true) }
        }
    }

    /// Stops `interruption` politely on the first SIGINT or SIGTERM (at once, when one came
    /// while the command was starting), until the returned ``Attachment`` is released; arms the
    /// trap if ``CLI/start(_:)`` did not (a command run in-process).
    static func attach(_ interruption: ImportInterruption) -> Attachment {
        let trap = shared.withLock { trap in
            if trap == nil { trap = SignalTrap(processWide: false) }
            return trap!
        }
        let pending: Int32? = trap.mode.withLock { mode in
            var pending: Int32?
            if case .startingUp(let waiting) = mode { pending = waiting }
            mode = .attached(interruption, caught: pending.map { _ in Self.monotonicNow() })
            return pending
        }
        Self.installHandlers()  // again, when an earlier command in this process released them
        if let pending { interruption.request(signal: pending) }
        return Attachment(trap: trap)
    }

    /// What SIGHUP does while a command has asked for it (``onHangup(_:)``): nil for the default
    /// action (the process ends).
    private static let hangupAction = Mutex<(@Sendable () -> Void)?>(nil)

    /// Calls `action` on each SIGHUP (on the trap's thread: it should only ask for work, as
    /// `serve`'s reopening of its access log does) until the returned ``HangupAttachment`` is
    /// released; then SIGHUP has its default action again.
    static func onHangup(_ action: @escaping @Sendable () -> Void) -> HangupAttachment {
        shared.withLock { trap in
            if trap == nil { trap = SignalTrap(processWide: false) }
        }
        hangupAction.withLock { $0 = action }
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = signalCaught
        sigemptyset(&handler.sa_mask)
        handler.sa_flags = SA_RESTART
        sigaction(SIGHUP, &handler, nil)
        return HangupAttachment()
    }

    /// A command's hold on SIGHUP: ``release()`` when it is done.
    struct HangupAttachment: Sendable {
        /// SIGHUP's default action again.
        func release() {
            signal(SIGHUP, SIG_DFL)
            SignalTrap.hangupAction.withLock { $0 = nil }
        }
    }

    /// Gives SIGINT and SIGTERM their default action for a command that does not stop
    /// politely; a signal that came while it was starting ends the process now, as it would
    /// have then.
    static func useDefaultAction() {
        guard let trap = shared.withLock({ $0 }) else { return }
        trap.release()
    }

    /// A command's hold on the trap: ``release()`` when it is done.
    struct Attachment: Sendable {
        fileprivate let trap: SignalTrap
        /// Gives SIGINT and SIGTERM back their default action (in a process armed by
        /// ``CLI/start(_:)``, at its exit: until then a signal is absorbed).
        func release() {
            if !trap.processWide { trap.release() }
        }
    }

    private init(processWide: Bool) {
        self.processWide = processWide
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        trapPipeWrite = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread { [self] in
            // One record per signal: its number, and when the handler ran.
            var record = SignalRecord()
            while true {
                let count = withUnsafeMutableBytes(of: &record) { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count == MemoryLayout<SignalRecord>.size else { break }
                caught(record.number, at: record.time)
            }
        }
        Self.installHandlers()
    }

    /// The `sigaction` handlers of SIGINT and SIGTERM.
    private static func installHandlers() {
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalCaught
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Two signals this close together (nanoseconds) are one request: `timeout(1)` sends its
    /// signal to the command and then to the command's process group, so the command gets it
    /// twice within microseconds; a person's second Ctrl-C comes far later.
    static let sameRequestWindow: UInt64 = 20_000_000

    /// What the reading thread does with a signal caught at `time`.
    private func caught(_ number: Int32, at time: UInt64) {
        if number == SIGHUP {
            if let action = Self.hangupAction.withLock({ $0 }) {
                action()
            } else {
                signal(SIGHUP, SIG_DFL)
                raise(SIGHUP)
            }
            return
        }
        enum Action { case wait, ignore, stop(ImportInterruption), endNow }
        let action: Action = mode.withLock { mode in
            switch mode {
            case .startingUp(nil):
                mode = .startingUp(pending: number)
                return .wait
            case .startingUp:
                return .endNow  // a second signal while starting
            case .attached(let interruption, nil):
                mode = .attached(interruption, caught: time)
                return .stop(interruption)
            case .attached(_, let first?):
                return time &- first < Self.sameRequestWindow ? .ignore : .endNow
            case .defaultAction:
                return .endNow
            }
        }
        switch action {
        case .wait, .ignore:
            break
        case .stop(let interruption):
            interruption.request(signal: number)
        case .endNow:
            // The default action, at once: the process ends.
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            raise(number)
        }
    }

    /// The monotonic clock, in nanoseconds.
    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// The default action from now on; a signal kept while starting is raised.
    private func release() {
        let pending: Int32? = mode.withLock { mode in
            defer { mode = .defaultAction }
            if case .startingUp(let pending) = mode { return pending }
            return nil
        }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        if let pending { raise(pending) }
    }
}

/// What the handler writes down the pipe for each signal: its number and when it came (one
/// `write` of fewer than PIPE_BUF bytes, so records never interleave).
private struct SignalRecord {
    var number: Int32 = 0
    var time: UInt64 = 0
}

/// The handler: the signal's number and the monotonic time, one record down the pipe (`write`
/// and `clock_gettime` are async-signal-safe; errno is kept for the code the signal
/// interrupted).
private func signalCaught(_ number: Int32) {
    let saved = errno
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    var record = SignalRecord(number: number, time: UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec))
    _ = withUnsafeBytes(of: &record) { write(trapPipeWrite, $0.baseAddress, $0.count) }
    errno = saved
}
