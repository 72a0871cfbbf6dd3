import Foundation

/// One HTTP response: status, headers (in order) and body. Built by the service, sent by
/// ``HTTPDaemon``; `HEAD` requests get the headers alone (libmicrohttpd leaves the body out).
package struct HTTPResponse: Sendable {
    /// The status code (200, 304, 404, …).
    package var status: Int
    /// Header fields, in the order they are sent.
    package var headers: [(name: String, value: String)]
    /// The body's bytes.
    package var body: [UInt8]
    /// A body written while it is sent (chunked), instead of `body`.
    package var stream: HTTPBodyStream?

    /// A response with `status`, `headers` and `body`.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `text` (UTF-8) of media type `contentType`.
    package init(status: Int, contentType: String, text: String) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    /// The value of header `name` (any case), if set.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Sets header `name` to `value`, replacing any value it had.
    package mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }
}
