import Foundation

/// A value guarded by a lock, for state that `Synchronization.Mutex` cannot hold because it is
/// not `Sendable` (key paths, for one).
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, under `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
