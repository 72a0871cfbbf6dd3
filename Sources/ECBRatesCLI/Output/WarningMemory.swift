import Synchronization

/// The warnings a shell session has printed, so that one that stands (the store is out of
/// date) is said once, not after every query; JSON answers still carry it each time.
///
/// `Sendable` through its `Mutex`.
final class WarningMemory: Sendable {
    private let said = Mutex<Set<String>>([])

    /// True the first time `message` is given, false after.
    func isFirst(_ message: String) -> Bool {
        said.withLock { $0.insert(message).inserted }
    }
}
