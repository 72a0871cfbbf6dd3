import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization

/// Answers already computed, each kept with the store state it was read from: while the store's
/// history token is the same, the answer is the same, byte for byte (an import, a correction,
/// any commit by any process changes the token, and every entry read before it is passed over).
/// A request the cache answers costs a read of the token instead of a snapshot and its queries.
/// It is bounded by bytes (``maximumBytes``), so that no sequence of requests grows the server
/// past what its operator set.
final class AnswerCache: Sendable {
    /// What an answer depends on besides the store: the request, and the days "now" decides
    /// (today, and the newest day due: a stale store's refusals and a status' age depend on them).
    struct Key: Hashable, Sendable {
        let target: String
        let accept: String
        let today: CalendarDay
        let due: CalendarDay
    }

    /// A kept answer, and its gzipped body once a client asked for it.
    final class Entry: Sendable {
        let answer: EndpointAnswer
        let token: HistoryToken
        /// The route that answered (for the metrics).
        let route: String
        private let packed = Mutex<[UInt8]??>(nil)
        private let tag = Mutex<String?>(nil)

        init(_ answer: EndpointAnswer, token: HistoryToken, route: String) {
            self.answer = answer
            self.token = token
            self.route = route
        }

        /// The body's content tag (``RateService/contentTag(_:)``), computed once.
        func contentTag(_ make: () -> String) -> String {
            if let known = tag.withLock({ $0 }) { return known }
            let made = make()
            tag.withLock { $0 = made }
            return made
        }

        /// The body gzipped (nil if zlib could not), computed once.
        func gzipped(_ make: () -> [UInt8]?) -> [UInt8]? {
            if let known = packed.withLock({ $0 }) { return known }
            let made = make()
            packed.withLock { $0 = made }
            return made
        }
    }

    /// The default of ``maximumBytes``: 64 MiB.
    package static let defaultBytes = 64 << 20

    /// What the kept answers may take, in bytes: each is charged twice its body (room for its
    /// gzipped copy, which is never larger) and 512 bytes; past it the oldest go first. An answer
    /// of more than a quarter of it is answered and not kept.
    let maximumBytes: Int

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were kept (a key kept again is in it twice; the older is skipped).
        var order: [Key] = []
        var head = 0
        var bytes = 0
    }

    private let state = Mutex(State())

    /// A cache of at most `maximumBytes` (``defaultBytes``).
    init(maximumBytes: Int = AnswerCache.defaultBytes) { self.maximumBytes = maximumBytes }

    /// The bytes an answer is charged.
    static func charge(_ answer: EndpointAnswer) -> Int { 2 * answer.body.utf8.count + 512 }

    /// What the kept answers are charged now.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The entry for `key` read at `token`, if kept.
    func entry(for key: Key, at token: HistoryToken) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            if entry.token == token { return entry }
            state.entries[key] = nil
            state.bytes -= Self.charge(entry.answer)
            return nil
        }
    }

    /// Keeps `answer` (whole, read at `token`, answered by `route`) for `key`, the oldest
    /// answers leaving to make room; returns the entry (not kept when it is too large).
    @discardableResult
    func keep(_ answer: EndpointAnswer, route: String, for key: Key, token: HistoryToken) -> Entry {
        let entry = Entry(answer, token: token, route: route)
        let charge = Self.charge(answer)
        guard charge <= maximumBytes / 4 else { return entry }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= Self.charge(old.answer) }
            while state.bytes + charge > maximumBytes, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let old = state.entries.removeValue(forKey: oldest) { state.bytes -= Self.charge(old.answer) }
            }
            if state.head > 4_096 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            state.entries[key] = entry
            state.order.append(key)
            state.bytes += charge
        }
        return entry
    }
}
