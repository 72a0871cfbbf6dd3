import Foundation

/// Which contexts the current thread is running blocks for: a thread-local stack, pushed and
/// popped around every `perform`/`performAndWait` block. A thread owns a context while it runs
/// one of its blocks, including a block of another context's `performAndWait` nested inside.
enum QueueOwnership {
    /// The per-thread stack. Each thread has its own instance, so no lock is needed.
    private final class Stack {
        var contexts: [ObjectIdentifier] = []
        /// How many `performAndWait` calls made from the main queue this thread is inside: it
        /// still holds the main queue there (the caller waits), so main-queue contexts are its.
        var mainQueueDepth = 0
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        precondition(status == 0, "ManagedStore: pthread_key_create failed (\(status))")
        return key
    }()

    private static var stack: Stack {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue()
        }
        let stack = Stack()
        pthread_setspecific(key, Unmanaged.passRetained(stack as AnyObject).toOpaque())
        return stack
    }

    static func enter(_ context: ManagedObjectContext) {
        stack.contexts.append(ObjectIdentifier(context))
    }

    static func leave(_ context: ManagedObjectContext) {
        let stack = stack
        if let index = stack.contexts.lastIndex(of: ObjectIdentifier(context)) {
            stack.contexts.remove(at: index)
        }
    }

    /// Runs `body` noting that this thread holds the main queue while it waits in it.
    static func holdingMainQueue<T>(_ body: () throws -> T) rethrows -> T {
        let stack = stack
        stack.mainQueueDepth += 1
        defer { stack.mainQueueDepth -= 1 }
        return try body()
    }

    /// True inside ``holdingMainQueue(_:)`` on this thread.
    static var holdsMainQueue: Bool {
        guard let pointer = pthread_getspecific(key) else { return false }
        return Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue().mainQueueDepth > 0
    }

    static func owns(_ context: ManagedObjectContext) -> Bool {
        guard let pointer = pthread_getspecific(key) else { return false }
        return Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue().contexts.contains(ObjectIdentifier(context))
    }
}
