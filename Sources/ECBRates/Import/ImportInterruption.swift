import Foundation
import Synchronization

/// A polite stop for an import, requested once (by SIGINT or SIGTERM in the command line):
/// the import starts no new chunk, lets the chunks in flight commit or roll back whole, and
/// ends with ``ImportStopped`` after recording what it stored.
///
/// ```swift
/// let interruption = ImportInterruption()
/// let job = ImportJob(store: store, sources: sources, interruption: interruption)
/// // elsewhere, on a signal:
/// interruption.request(signal: SIGTERM)
/// ```
public final class ImportInterruption: Sendable {
    private struct State {
        var signal: Int32?
        var observers: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    /// A stop not yet requested.
    public init() {}

    /// Asks the import to stop, for `signal` (the exit status is 128 + `signal`); only the
    /// first request counts.
    public func request(signal: Int32) {
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.signal == nil else { return [] }
            state.signal = signal
            defer { state.observers = [] }
            return state.observers
        }
        for observer in observers { observer() }
    }

    /// Whether a stop was requested.
    public var isRequested: Bool { state.withLock { $0.signal != nil } }

    /// The signal the stop was requested for.
    public var signal: Int32? { state.withLock { $0.signal } }

    /// The error an import stopped by this request ends with (nil while none was requested).
    var stop: ImportStopped? { signal.map(ImportStopped.init) }

    /// Calls `body` once a stop is requested (at once, when it already was).
    public func observe(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.signal != nil { return true }
            state.observers.append(body)
            return false
        }
        if now { body() }
    }
}

/// An import that stopped because it was asked to (``ImportInterruption``), after storing the
/// whole chunks it had started.
public struct ImportStopped: Error, Sendable, Equatable, CustomStringConvertible {
    /// The signal that asked for the stop.
    public let signal: Int32

    /// The stop `signal` asked for.
    public init(signal: Int32) {
        self.signal = signal
    }

    /// `SIGINT`, `SIGTERM`, or `signal N`.
    public var signalName: String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }

    public var description: String { "interrupted by \(signalName)" }
}
