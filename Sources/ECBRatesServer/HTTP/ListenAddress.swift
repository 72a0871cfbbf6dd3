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
}
