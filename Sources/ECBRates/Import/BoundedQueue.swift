import Foundation

/// A first-in, first-out queue of limited size between one producer and several consumers:
/// `put` waits while the queue is full (so the producer never runs far ahead), `take` waits
/// while it is empty.
///
/// `@unchecked Sendable`: `items`, `closed` and `cancelled` are read and written only while
/// `condition` is locked.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private var cancelled = false

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Adds an element, waiting for room; false when the queue was cancelled (drop the element).
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The next element, waiting for one; nil once the queue is closed and empty, or cancelled.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed && !cancelled { condition.wait() }
        guard !cancelled, head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return element
    }

    /// No more elements will come; consumers drain what is queued.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops everything: queued elements are dropped, `put` and `take` return at once.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
