import Testing

@testable import ECBRates

/// The queue between an import's reader and its workers.
@Suite struct BoundedQueueTests {
    final class Chunk: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    /// A taken element is the consumer's alone: the queue keeps no reference to it. (It kept
    /// every taken chunk of a long import alive, until it had handed on 64 of them.)
    @Test func aTakenElementIsReleasedWithTheConsumersLastReference() {
        let queue = BoundedQueue<Chunk>(capacity: 2)
        weak var first: Chunk?
        do {
            let chunk = Chunk(1)
            first = chunk
            #expect(queue.put(chunk))
            #expect(queue.put(Chunk(2)))
        }
        do {
            let taken = queue.take()
            #expect(taken?.number == 1)
        }
        #expect(first == nil)
    }

    @Test func elementsComeOutInOrderAcrossTheRingAndCloseDrainsThem() {
        let queue = BoundedQueue<Chunk>(capacity: 3)
        var out: [Int] = []
        for number in 0..<10 {
            #expect(queue.put(Chunk(number)))
            if number % 2 == 1 {
                out.append(queue.take()!.number)
                out.append(queue.take()!.number)
            }
        }
        queue.close()
        #expect(queue.take() == nil)
        #expect(out == Array(0..<10))
        let cancelled = BoundedQueue<Chunk>(capacity: 1)
        #expect(cancelled.put(Chunk(0)))
        cancelled.cancel()
        #expect(cancelled.take() == nil)
        #expect(!cancelled.put(Chunk(1)))
    }
}
