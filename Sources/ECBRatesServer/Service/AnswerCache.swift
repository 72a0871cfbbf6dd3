import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization

/// Answers already computed, each kept with the store state it was read from: while the store's
/// history token is the same, the answer is the same, byte for byte (an import, a correction,
/// any commit by any process changes the token, and every entry read before it is passed over).
/// A request the cache answers costs a read of the token instead of a snapshot and its queries.
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

        init(_ answer: EndpointAnswer, token: HistoryToken, route: String) {
            self.answer = answer
            self.token = token
            self.route = route
        }

        /// The body gzipped (nil if zlib could not), computed once.
        func gzipped(_ make: () -> [UInt8]?) -> [UInt8]? {
            if let known = packed.withLock({ $0 }) { return known }
            let made = make()
            packed.withLock { $0 = made }
            return made
        }
    }

    /// The most answers kept; past it the cache starts again empty (answers are small, and the
    /// requests a server sees repeat: the newest day, a few currencies).
    static let capacity = 4_096

    private let entries = Mutex<[Key: Entry]>([:])

    /// The entry for `key` read at `token`, if kept.
    func entry(for key: Key, at token: HistoryToken) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            if entry.token == token { return entry }
            entries[key] = nil
            return nil
        }
    }

    /// Keeps `answer` (whole, read at `token`, answered by `route`) for `key`.
    @discardableResult
    func keep(_ answer: EndpointAnswer, route: String, for key: Key, token: HistoryToken) -> Entry {
        let entry = Entry(answer, token: token, route: route)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
        return entry
    }
}
