import Foundation

/// A first-in, first-out queue of limited size between one producer and several consumers:
/// `put` waits while the queue is full (so the producer never runs far ahead), `take` waits
/// while it is empty.
///
/// `@unchecked Sendable`: `slots`, `head`, `count`, `closed` and `cancelled` are read and
/// written only while `condition` is locked.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// A ring of `capacity` slots; a taken element's slot is emptied at once, so the queue
    /// never holds more than `capacity` elements alive.
    private var slots: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false
    private var cancelled = false

    init(capacity: Int) {
        precondition(capacity > 0)
        self.slots = Array(repeating: nil, count: capacity)
    }

    /// Adds an element, waiting for room; false when the queue was cancelled (drop the element).
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == slots.count && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        slots[(head + count) % slots.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// The next element, waiting for one; nil once the queue is closed and empty, or cancelled.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed && !cancelled { condition.wait() }
        guard !cancelled, count > 0 else { return nil }
        let element = slots[head].take()
        head = (head + 1) % slots.count
        count -= 1
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

    /// Stops everything: queued elements are dropped, `put` and `take` return at once. Returns
    /// how many elements were dropped.
    @discardableResult
    func cancel() -> Int {
        condition.lock()
        let dropped = count
        cancelled = true
        slots = Array(repeating: nil, count: slots.count)
        count = 0
        condition.broadcast()
        condition.unlock()
        return dropped
    }
}
