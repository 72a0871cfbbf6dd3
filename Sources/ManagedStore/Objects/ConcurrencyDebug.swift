import Foundation

/// `MANAGEDSTORE_CONCURRENCY_DEBUG=1` in the environment (read once, at first use) makes every
/// touch of a context or a managed object off its context's queue trap, naming both, as Core
/// Data's `-com.apple.CoreData.ConcurrencyDebug 1` does.
enum ConcurrencyDebug {
    static let isEnabled: Bool = ProcessEnvironment.value("MANAGEDSTORE_CONCURRENCY_DEBUG") == "1"

    /// Describes the current thread for a trap message.
    static var currentThreadDescription: String {
        if Thread.isMainThread { return "the main thread" }
        if let name = Thread.current.name, !name.isEmpty { return "thread '\(name)'" }
        return "thread \(pthread_self())"
    }
}
