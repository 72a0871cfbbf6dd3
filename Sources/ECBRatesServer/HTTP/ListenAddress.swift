import Foundation

/// An address to listen on: an IPv4 or IPv6 host (numeric) and a port.
struct ListenAddress: CustomStringConvertible {
    private var storage = sockaddr_storage()
    /// Whether the host is an IPv6 address.
    let isIPv6: Bool
    let host: String
    let port: UInt16

    /// `host` (numeric: `127.0.0.1`, `::1`) and `port`; ``ServeError/badAddress(_:)`` otherwise.
    init(host: String, port: UInt16) throws {
        self.host = host
        self.port = port
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            isIPv6 = false
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeBytes(of: v4) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            isIPv6 = true
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeBytes(of: v6) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
        } else {
            throw ServeError.badAddress("'\(host)' is not a numeric IPv4 or IPv6 address")
        }
    }

    /// Runs `body` with the address as a `sockaddr`.
    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// A C string in `buffer`, up to its terminating zero.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address socket `descriptor` is bound to (a socket handed over by systemd):
    /// `127.0.0.1:8080`, `[::1]:8080` or `unix:/run/ecbrates.sock`; nil when it cannot be read.
    static func bound(to descriptor: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let read = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard read == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            var v4 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            guard inet_ntop(AF_INET, &v4.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
            return "\(Self.text(text)):\(UInt16(bigEndian: v4.sin_port))"
        case AF_INET6:
            var v6 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            guard inet_ntop(AF_INET6, &v6.sin6_addr, &text, socklen_t(text.count)) != nil else { return nil }
            return "[\(Self.text(text))]:\(UInt16(bigEndian: v6.sin6_port))"
        case AF_UNIX:
            let path = withUnsafeBytes(of: storage) { raw in
                let unix = raw.load(as: sockaddr_un.self)
                return withUnsafeBytes(of: unix.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            }
            return "unix:\(path)"
        default:
            return nil
        }
    }
}
