import Dispatch
import ECBRates
import Foundation

/// Turns the first SIGINT or SIGTERM into a polite stop of an import (``ImportInterruption``)
/// and lets a second one kill the process at once, as the default action does.
///
/// `@unchecked Sendable`: `sources` is written in `init` and read in `restore()`, both on the
/// thread that runs the command; the handlers run on their own serial queue and touch only the
/// interruption (which is `Sendable`) and `signal(2)`.
final class SignalTrap: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private static let queue = DispatchQueue(label: "ecbrates.signals")

    /// Traps SIGINT and SIGTERM for `interruption` until ``restore()``.
    init(interruption: ImportInterruption) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: Self.queue)
            source.setEventHandler {
                // The next SIGINT or SIGTERM takes the default action: the process ends at once.
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                interruption.request(signal: number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Gives SIGINT and SIGTERM back their default action.
    func restore() {
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
