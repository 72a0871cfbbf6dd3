import CZlib
import Foundation

/// The system's zlib, loaded with `dlopen` the first time a compressed file is read: the four
/// functions the readers use.
struct Zlib: @unchecked Sendable {
    // `@unchecked Sendable`: C function pointers into a library that is never unloaded, and
    // zlib's functions keep no state outside the z_stream each call is given.
    typealias InflateInit =
        @convention(c) (UnsafeMutablePointer<z_stream>?, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    typealias Inflate = @convention(c) (UnsafeMutablePointer<z_stream>?, Int32) -> Int32
    typealias InflateEnd = @convention(c) (UnsafeMutablePointer<z_stream>?) -> Int32
    typealias CRC32 = @convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt

    let inflateInit2: InflateInit
    let inflate: Inflate
    let inflateEnd: InflateEnd
    let crc32: CRC32

    /// zlib, or why it could not be loaded.
    static let shared: Result<Zlib, FeedError> = {
        guard let handle = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(
                FeedError(
                    source: "zlib", line: nil, column: nil, kind: .unreadable,
                    message: "zlib could not be loaded (\(String(cString: dlerror()))); install zlib1g"))
        }
        func symbol<T>(_ name: String, as: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: T.self) } }
        guard let initialise = symbol("inflateInit2_", as: InflateInit.self),
            let inflate = symbol("inflate", as: Inflate.self),
            let end = symbol("inflateEnd", as: InflateEnd.self), let crc = symbol("crc32", as: CRC32.self)
        else {
            return .failure(
                FeedError(
                    source: "zlib", line: nil, column: nil, kind: .unreadable,
                    message: "zlib lacks inflate; install zlib1g"))
        }
        return .success(Zlib(inflateInit2: initialise, inflate: inflate, inflateEnd: end, crc32: crc))
    }()
}
