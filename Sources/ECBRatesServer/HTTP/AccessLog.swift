import Foundation

/// The server's access log: one line per request on standard error.
package enum AccessLog {
    /// `2026-11-24T10:00:00Z GET /latest?symbols=USD 200 91 B 412 µs`
    package static func line(_ exchange: HTTPDaemon.Exchange, at moment: Date) -> String {
        let components = exchange.duration.components
        let micros = components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
        // A control character in a target is shown as ?, so that a line is one line.
        var target = exchange.target
        if target.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            target = String(
                decoding: target.utf8.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
        }
        return
            "\(timestamp(moment)) \(exchange.method.isEmpty ? "-" : exchange.method) \(target) \(exchange.status) \(exchange.bytes) B \(micros) µs\(exchange.ending.map { " (\($0))" } ?? "")\n"
    }

    /// `2026-11-24T10:00:00Z`, written from `gmtime_r` (a line a request: no formatter).
    package static func timestamp(_ moment: Date) -> String {
        var seconds = time_t(moment.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
