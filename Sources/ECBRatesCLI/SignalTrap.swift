import ECBRates
import Foundation

/// The write end of the pipe that ``SignalTrap``'s handler writes a caught signal's number to
/// (-1 while no trap is set). Guarded by order, not a lock: it is set before the handler is
/// installed and cleared after the default action is back, and the handler only reads it. A
/// global with a literal initial value is initialised statically, so the handler reads it
/// without Swift's lazy-initialisation lock, which is not async-signal-safe.
nonisolated(unsafe) private var trapPipeWrite: Int32 = -1

/// Turns the first SIGINT or SIGTERM into a polite stop (``ImportInterruption``) and lets a
/// second one end the process at once, as the default action does.
///
/// A `sigaction` handler, process-wide: whichever thread the kernel picks (libmicrohttpd's,
/// an import worker's, a Dispatch thread), the signal is caught. (Dispatch's signal sources
/// need the signal ignored, and a signal the kernel delivered to a thread that did not block it
/// was then discarded: a SIGTERM to `serve` now and then did nothing, and an import's Ctrl-C
/// could arrive in the window before the source was armed.) The handler writes one byte to a
/// pipe, which is async-signal-safe; a thread of its own reads the pipe and does the rest.
///
/// `@unchecked Sendable`: `readEnd` and `writeEnd` are set in `init` and closed in
/// `restore()`, both on the thread that runs the command; the reading thread touches only the
/// read end it was given, the interruption (which is `Sendable`) and `signal(2)`.
final class SignalTrap: @unchecked Sendable {
    private var writeEnd: Int32 = -1

    /// Traps SIGINT and SIGTERM for `interruption` until ``restore()``.
    init(interruption: ImportInterruption) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        writeEnd = ends[1]
        trapPipeWrite = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            var caught = false
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { break }
                let number = Int32(byte)
                if caught {
                    // A second signal: the default action, at once.
                    signal(number, SIG_DFL)
                    raise(number)
                    continue
                }
                caught = true
                // The next SIGINT or SIGTERM takes the default action: the process ends at once.
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                interruption.request(signal: number)
            }
            close(readEnd)
        }
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalCaught
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Gives SIGINT and SIGTERM back their default action.
    func restore() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        guard writeEnd >= 0 else { return }
        trapPipeWrite = -1
        close(writeEnd)
        writeEnd = -1
    }
}

/// The handler: the signal's number, one byte, down the pipe (`write` is async-signal-safe;
/// errno is kept for the code the signal interrupted).
private func signalCaught(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(trapPipeWrite, &byte, 1)
    errno = saved
}
