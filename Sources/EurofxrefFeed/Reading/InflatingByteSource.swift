import CZlib
import Foundation

/// The inflated bytes of a gzip file, or of the one file a zip archive holds (the ECB's
/// `eurofxref-hist.zip` and `eurofxref.zip`), streamed through the system's zlib in constant
/// memory. Damaged, truncated or checksum-failing data is a ``FeedError`` naming the byte of the
/// compressed file where it was found; so is a zip archive holding more than one file, or one
/// whose entry is encrypted or compressed other than by deflate.
final class InflatingByteSource: ByteSource {
    /// What wraps the compressed data.
    enum Container: String {
        case gzip
        case zip
    }

    private let input: ByteSource
    private let container: Container
    private let source: String
    private let zlib: Zlib
    private let inBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    private var stream = z_stream()
    private var started = false
    private var finished = false
    /// Compressed bytes consumed so far, for the position of an error.
    private var consumed = 0
    /// For a zip entry: its checksum, how it is stored, and the checksum of what came out.
    private var expectedCRC: UInt32?
    private var hasDescriptor = false
    private var stored: Int?
    private var crc: UInt = 0

    init(_ input: ByteSource, container: Container, source: String) throws {
        self.input = input
        self.container = container
        self.source = source
        switch Zlib.shared {
        case .success(let zlib): self.zlib = zlib
        case .failure(let error):
            throw FeedError(source: source, line: nil, column: nil, kind: .unreadable, message: error.message)
        }
    }

    deinit {
        if started { _ = zlib.inflateEnd(&stream) }
        inBuffer.deallocate()
    }

    private func fail(_ kind: FeedError.Kind, _ message: String) -> FeedError {
        FeedError(source: source, line: nil, column: nil, kind: kind, message: message)
    }

    /// Refills zlib's input; false at the end of the compressed file.
    private func refill() throws -> Bool {
        let count = try input.read(into: inBuffer)
        stream.next_in = inBuffer.baseAddress
        stream.avail_in = UInt32(count)
        return count > 0
    }

    /// Exactly `count` bytes of the compressed file (from zlib's input first).
    private func take(_ count: Int) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < count {
            if stream.avail_in == 0, try !refill() { return nil }
            let n = min(Int(stream.avail_in), count - bytes.count)
            bytes += UnsafeBufferPointer(start: stream.next_in, count: n)
            stream.next_in += n
            stream.avail_in -= UInt32(n)
            consumed += n
        }
        return bytes
    }

    private static func little(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> Int {
        (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    private func start() throws {
        started = true
        var windowBits: Int32 = 15 + 16  // gzip
        if container == .zip {
            guard let header = try take(30), Self.little(header, 0, 4) == 0x0403_4B50 else {
                throw fail(
                    .malformed, "is not a zip archive the reader understands (no local file header at its start)")
            }
            let flags = Self.little(header, 6, 2), method = Self.little(header, 8, 2)
            let nameLength = Self.little(header, 26, 2), extraLength = Self.little(header, 28, 2)
            guard let name = try take(nameLength), try take(extraLength) != nil else {
                throw fail(.truncated, "the zip archive ends inside its first header")
            }
            let entry = String(decoding: name, as: UTF8.self)
            if flags & 1 != 0 { throw fail(.malformed, "the zip entry \(entry) is encrypted") }
            hasDescriptor = flags & 8 != 0
            if !hasDescriptor { expectedCRC = UInt32(Self.little(header, 14, 4)) }
            switch method {
            case 8: windowBits = -15
            case 0:
                guard !hasDescriptor else {
                    throw fail(.malformed, "the zip entry \(entry) is stored without its size")
                }
                stored = Self.little(header, 18, 4)
                return
            default:
                throw fail(
                    .malformed,
                    "the zip entry \(entry) is compressed with method \(method); expected deflate (8) or none (0)")
            }
        }
        let status = zlib.inflateInit2(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw fail(.unreadable, "zlib could not start inflating (status \(status))") }
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        if !started { try start() }
        if finished { return 0 }
        if let remaining = stored {
            // A stored zip entry: its bytes as they are.
            let count = min(remaining, buffer.count)
            guard count > 0 else { return try end(produced: 0) }
            guard let bytes = try take(count) else {
                throw fail(.truncated, "the zip archive ends inside its file (\(remaining) bytes missing)")
            }
            _ = buffer.initialize(from: bytes)
            stored = remaining - count
            crc = bytes.withUnsafeBufferPointer { zlib.crc32(crc, $0.baseAddress, UInt32($0.count)) }
            return count
        }
        stream.next_out = buffer.baseAddress
        stream.avail_out = UInt32(buffer.count)
        while stream.avail_out == UInt32(buffer.count) {
            if stream.avail_in == 0, try !refill() {
                throw fail(.truncated, "the \(container.rawValue) data ends early, after \(consumed) compressed bytes")
            }
            let before = Int(stream.avail_in)
            let status = zlib.inflate(&stream, Z_NO_FLUSH)
            consumed += before - Int(stream.avail_in)
            let produced = buffer.count - Int(stream.avail_out)
            if produced > 0 { crc = zlib.crc32(crc, buffer.baseAddress, UInt32(produced)) }
            switch status {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                return try end(produced: produced)
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw fail(
                    .malformed,
                    "the \(container.rawValue) data is damaged near compressed byte \(consumed) (zlib: \(reason))")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }

    /// The end of the compressed data: checks what follows it.
    private func end(produced: Int) throws -> Int {
        finished = true
        switch container {
        case .gzip:
            // zlib checked the gzip trailer's checksum and length. A second member, or anything
            // else after the first, is not a file the ECB publishes.
            while try stream.avail_in > 0 || refill() {
                if UnsafeBufferPointer(start: stream.next_in, count: Int(stream.avail_in)).contains(where: { $0 != 0 })
                {
                    throw fail(
                        .malformed,
                        "there is data after the end of the gzip stream (byte \(consumed)); expected one compressed file"
                    )
                }
                stream.avail_in = 0
            }
        case .zip:
            if hasDescriptor {
                guard var descriptor = try take(12) else {
                    throw fail(.truncated, "the zip archive ends before its data descriptor")
                }
                if Self.little(descriptor, 0, 4) == 0x0807_4B50 {
                    guard let rest = try take(4) else {
                        throw fail(.truncated, "the zip archive ends inside its data descriptor")
                    }
                    descriptor = Array(descriptor[4...]) + rest
                }
                expectedCRC = UInt32(Self.little(descriptor, 0, 4))
            }
            if let expectedCRC, UInt32(truncatingIfNeeded: crc) != expectedCRC {
                throw fail(.malformed, "the zip entry's checksum does not match its contents (damaged archive)")
            }
            guard let signature = try take(4) else {
                throw fail(.truncated, "the zip archive ends without its directory")
            }
            switch Self.little(signature, 0, 4) {
            case 0x0201_4B50, 0x0605_4B50: break
            case 0x0403_4B50:
                throw fail(.malformed, "the zip archive holds more than one file; expected one, as the ECB's do")
            default: throw fail(.malformed, "unexpected bytes after the zip entry (compressed byte \(consumed))")
            }
        }
        return produced
    }
}
