import Foundation

/// Where a reader's bytes come from, a block at a time: a file or standard input
/// (``StreamByteSource``), or the inflated contents of a `.gz` or `.zip` file
/// (``InflatingByteSource``).
protocol ByteSource: AnyObject {
    /// Fills the start of `buffer`; returns how many bytes (0 at the end). Throws a
    /// ``FeedError`` when the bytes cannot be read.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int
}

/// The bytes of an `InputStream`, after `prefix` (bytes already read from it).
final class StreamByteSource: ByteSource {
    private let stream: InputStream
    private let source: String
    private var prefix: [UInt8]

    init(_ stream: InputStream, source: String, prefix: [UInt8] = []) {
        self.stream = stream
        self.source = source
        self.prefix = prefix
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        if !prefix.isEmpty {
            let count = min(prefix.count, buffer.count)
            _ = buffer.initialize(from: prefix[..<count])
            prefix.removeFirst(count)
            return count
        }
        let count = stream.read(buffer.baseAddress!, maxLength: buffer.count)
        if count < 0 {
            throw FeedError(
                source: source, line: nil, column: nil, kind: .unreadable,
                message: "could not be read: \(stream.streamError?.localizedDescription ?? "unknown error")")
        }
        return count
    }
}
