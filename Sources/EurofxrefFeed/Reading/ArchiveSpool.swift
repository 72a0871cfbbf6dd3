import Foundation

/// A compressed file, copied to a temporary file and checked whole before any of it is read as
/// rates: a gzip's or zip entry's checksum (and a zip's one-entry rule) is known only at its end,
/// and an import must not store a day of an archive that turns out damaged. Memory stays
/// constant (a block at a time); the disk holds the compressed bytes until the read ends.
final class ArchiveSpool {
    /// The temporary copy.
    let url: URL

    /// Copies `prefix` then the rest of `stream`, and inflates the copy to its end, throwing
    /// the ``FeedError`` of any damage.
    init(stream: InputStream, prefix: [UInt8], container: InflatingByteSource.Container, source: String) throws {
        var template = Array((NSTemporaryDirectory() + "/ecbrates-archive-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw FeedError(
                source: source, line: nil, column: nil, kind: .unreadable,
                message: "cannot make a temporary copy to check the archive: \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        defer { close(descriptor) }
        let copy = StreamByteSource(stream, source: source, prefix: prefix)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        defer { buffer.deallocate() }
        while true {
            let count = try copy.read(into: buffer)
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    throw FeedError(
                        source: source, line: nil, column: nil, kind: .unreadable,
                        message:
                            "cannot make a temporary copy to check the archive: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
        // The check: inflate it all, keep nothing.
        let check = try InflatingByteSource(try Self.open(url, source: source), container: container, source: source)
        while try check.read(into: buffer) > 0 {}
    }

    /// The copy's bytes, from the start.
    func bytes(source: String) throws -> ByteSource { try Self.open(url, source: source) }

    private static func open(_ url: URL, source: String) throws -> ByteSource {
        guard let stream = InputStream(url: url) else {
            throw FeedError(
                source: source, line: nil, column: nil, kind: .unreadable,
                message: "the temporary copy of the archive vanished")
        }
        stream.open()
        return StreamByteSource(stream, source: source)
    }

    deinit { unlink(url.path) }
}
