import ECBRatesServer
import Foundation

/// The server's access log: one line per request on standard error.
enum AccessLog {
    /// `2026-11-24T10:00:00Z GET /latest?symbols=USD 200 91 B 412 µs`
    static func line(_ exchange: HTTPDaemon.Exchange, at moment: Date) -> String {
        let components = exchange.duration.components
        let micros = components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
        let target = exchange.target.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }
            .joined()
        return
            "\(moment.formatted(.iso8601)) \(exchange.method.isEmpty ? "-" : exchange.method) \(target) \(exchange.status) \(exchange.bytes) B \(micros) µs\n"
    }
}
