import Synchronization

/// The continuations of a ``FetchedResultsController``'s ``FetchedResultsController/changes``
/// streams. `Sendable` (a `Mutex` guards the continuations): a stream ends on any task, and
/// says so from there.
final class FetchedResultsChangeStreams: Sendable {
    private struct State {
        var next = 0
        var continuations: [Int: AsyncStream<FetchedResultsChangeSet>.Continuation] = [:]
    }
    private let state = Mutex(State())

    /// A new stream that receives every change set yielded from now on, until it ends.
    func makeStream() -> AsyncStream<FetchedResultsChangeSet> {
        let (stream, continuation) = AsyncStream.makeStream(of: FetchedResultsChangeSet.self)
        let key = state.withLock { state in
            state.next += 1
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    /// Whether a stream is still being listened to.
    var hasListeners: Bool { state.withLock { !$0.continuations.isEmpty } }

    func yield(_ changes: FetchedResultsChangeSet) {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.yield(changes) }
    }

    func finishAll() {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.finish() }
    }
}
