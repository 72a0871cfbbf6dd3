import Foundation
import Synchronization

/// A response body written while it is sent (chunked): a producer writes into a pipe, and
/// libmicrohttpd reads the other end as the client takes the bytes, so that memory stays flat
/// however long the answer. A producer that fails ends the stream with an error: the connection
/// closes without the last chunk, and the client sees the answer cut short, never complete.
package final class HTTPBodyStream: @unchecked Sendable {
    // `@unchecked Sendable`: `prefix` and `sent` are touched by ``prefetch(atLeast:)`` before the
    // stream is handed to libmicrohttpd, then only by ``read(into:count:)``, which it calls on
    // the one thread serving the connection, one call at a time; the producer's outcome is
    // behind its own mutex; `readEnd` is set once.
    private let readEnd: Int32
    private var prefix: [UInt8] = []
    private let outcome: Writer.Outcome
    /// Bytes handed to libmicrohttpd so far (for the access log).
    package private(set) var sent = 0

    private init(readEnd: Int32, outcome: Writer.Outcome) {
        self.readEnd = readEnd
        self.outcome = outcome
    }

    /// A stream and the writer that feeds it.
    package static func make() throws -> (HTTPBodyStream, Writer) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ServiceError(status: 500, "cannot make a pipe: errno \(errno)") }
        let outcome = Writer.Outcome()
        return (HTTPBodyStream(readEnd: ends[0], outcome: outcome), Writer(writeEnd: ends[1], outcome: outcome))
    }

    /// Whether the producer finished normally (nil while it runs).
    package var succeeded: Bool? { outcome.succeeded }

    /// Reads until `atLeast` bytes are in hand or the producer has finished: the bytes, and
    /// whether the producer is done (then its outcome is known). The server decides the status
    /// from this: a failure within the first bytes is still an error status, not a cut stream.
    package func prefetch(atLeast: Int) -> (bytes: Int, finished: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while prefix.count < atLeast {
            let count = Glibc.read(readEnd, &buffer, buffer.count)
            if count > 0 {
                prefix += buffer[..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return (prefix.count, true)
            }
        }
        return (prefix.count, false)
    }

    /// The prefetched bytes as text (for an answer decided before streaming).
    package var prefetchedText: String { String(decoding: prefix, as: UTF8.self) }

    /// libmicrohttpd's content reader: up to `count` bytes into `buffer`; -1 at the end, -2 when
    /// the producer failed.
    func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        if !prefix.isEmpty {
            let taken = min(count, prefix.count)
            prefix.withUnsafeBytes {
                UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: taken)
            }
            prefix.removeFirst(taken)
            sent += taken
            return taken
        }
        while true {
            let read = Glibc.read(readEnd, buffer, count)
            if read > 0 {
                sent += read
                return read
            }
            if read < 0 && errno == EINTR { continue }
            return outcome.succeeded == true ? -1 : -2
        }
    }

    deinit { close(readEnd) }

    /// The producer's end: writes the body's bytes, then says how it ended.
    package final class Writer: Sendable {
        /// How the producer ended, set before its end of the pipe closes.
        final class Outcome: Sendable {
            private let value = Mutex<Bool?>(nil)
            var succeeded: Bool? { value.withLock { $0 } }
            func set(_ succeeded: Bool) { value.withLock { $0 = succeeded } }
        }

        private let writeEnd: Int32
        private let outcome: Outcome
        private let closed = Mutex(false)

        fileprivate init(writeEnd: Int32, outcome: Outcome) {
            self.writeEnd = writeEnd
            self.outcome = outcome
        }

        /// Writes `text` whole; throws when the reader has gone (the client hung up).
        package func write(_ text: String) throws {
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeMutableBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw ServiceError(status: 499, "the client closed the connection") }
                offset += count
            }
            bytes.removeAll()
        }

        /// Ends the body: normally, or cut short when `succeeded` is false (the first call counts).
        package func finish(succeeded: Bool) {
            closed.withLock { isClosed in
                guard !isClosed else { return }
                outcome.set(succeeded)
                close(writeEnd)
                isClosed = true
            }
        }

        deinit { finish(succeeded: false) }
    }
}
