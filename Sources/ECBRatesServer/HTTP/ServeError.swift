/// Why the server could not start.
package enum ServeError: Error, Sendable, CustomStringConvertible {
    /// libmicrohttpd is not installed (Debian: libmicrohttpd12).
    case libraryMissing(String)
    /// The listening address cannot be parsed.
    case badAddress(String)
    /// The address cannot be bound (in use, not allowed).
    case cannotListen(address: String, reason: String)
    /// The loaded libmicrohttpd was built without TLS.
    case noTLS

    package var description: String {
        switch self {
        case .libraryMissing(let reason):
            "serving HTTP needs libmicrohttpd (Debian: apt install libmicrohttpd12): \(reason)"
        case .badAddress(let reason): "--listen: \(reason)"
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        case .noTLS:
            "--tls-cert: this libmicrohttpd was built without TLS (Debian's libmicrohttpd12 has it, with GnuTLS)"
        }
    }
}
