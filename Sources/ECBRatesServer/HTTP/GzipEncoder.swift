import CZlib
import Foundation

/// gzip (RFC 1952) for answers a client asked to receive compressed (`Accept-Encoding: gzip`),
/// through the system's zlib, loaded with `dlopen` the first time an answer is compressed (as
/// the feed readers load it to inflate: a query never pays for it).
struct GzipEncoder: @unchecked Sendable {
    // `@unchecked Sendable`: C function pointers into a library that is never unloaded; zlib
    // keeps no state outside the z_stream each call is given, and each call makes its own.
    private typealias DeflateInit =
        @convention(c) (
            UnsafeMutablePointer<z_stream>?, Int32, Int32, Int32, Int32, Int32, UnsafePointer<CChar>?, Int32
        ) -> Int32
    private typealias Deflate = @convention(c) (UnsafeMutablePointer<z_stream>?, Int32) -> Int32
    private typealias DeflateEnd = @convention(c) (UnsafeMutablePointer<z_stream>?) -> Int32
    private typealias DeflateBound = @convention(c) (UnsafeMutablePointer<z_stream>?, UInt) -> UInt

    private let deflateInit2: DeflateInit
    private let deflate: Deflate
    private let deflateEnd: DeflateEnd
    private let deflateBound: DeflateBound

    /// Bodies smaller than this go out as they are: gzip's header and trailer would eat the gain.
    static let minimumBytes = 1_024

    /// The encoder, or nil when zlib cannot be loaded (answers then go out uncompressed, which
    /// `Accept-Encoding` allows: it is an offer, not a demand).
    static let shared: GzipEncoder? = {
        guard let handle = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: T.self) } }
        guard let initialise = symbol("deflateInit2_", as: DeflateInit.self),
            let deflate = symbol("deflate", as: Deflate.self), let end = symbol("deflateEnd", as: DeflateEnd.self),
            let bound = symbol("deflateBound", as: DeflateBound.self)
        else { return nil }
        return GzipEncoder(deflateInit2: initialise, deflate: deflate, deflateEnd: end, deflateBound: bound)
    }()

    /// `bytes` as one gzip member (level 6), or nil if zlib refused (never for valid input).
    func encode(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // Window bits 15 + 16: a gzip header and trailer rather than zlib's.
        guard
            deflateInit2(
                &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { _ = deflateEnd(&stream) }
        // The bound leaves room for gzip's 18 bytes of header and trailer.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether a request's `Accept-Encoding` takes gzip (listed without `q=0`, or `*`).
    static func isAccepted(by acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let refused = parts.dropFirst().contains {
                $0.replacingOccurrences(of: " ", with: "").hasPrefix("q=0")
                    && Double($0.split(separator: "=").last ?? "") == 0
            }
            if !refused { return true }
        }
        return false
    }
}
