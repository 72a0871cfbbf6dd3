/// One HTTP request as the service sees it: the method, the path and query as sent (decoded
/// once, here), the headers, and the body (for `POST /api/convert`).
package struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`, …
    package let method: String
    /// The request target as sent: path and query, still percent-encoded.
    package let target: String
    /// The path, percent-decoded (`/2024-03-28`).
    package let path: String
    /// The query's parameters, in order, percent-decoded (`+` is a space).
    package let query: [(name: String, value: String)]
    /// The headers, by lower-cased name (repeated headers joined with ", ").
    package let headers: [String: String]
    /// The request body (empty for most requests).
    package let body: [UInt8]

    /// A request; `target` is split into its path and query and decoded. Throws
    /// ``HTTPRequestError`` for a target that cannot be decoded (a bad escape, a NUL, `..`).
    package init(method: String, target: String, headers: [String: String] = [:], body: [UInt8] = []) throws {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts.first.map(String.init) ?? "/"
        guard let path = Self.decode(rawPath, plusIsSpace: false), !path.contains("\0") else {
            throw HTTPRequestError(message: "the path \(rawPath) is not a valid percent-encoded path")
        }
        guard path.hasPrefix("/") else { throw HTTPRequestError(message: "the path \(rawPath) does not start with /") }
        // A path that climbs (`/../`, `/./`) is refused, not resolved: no route has one.
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." }) {
            throw HTTPRequestError(message: "the path \(rawPath) has a '.' or '..' segment")
        }
        self.path = path
        var query: [(String, String)] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") where !pair.isEmpty {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = Self.decode(String(nameValue[0]), plusIsSpace: true),
                    let value = Self.decode(nameValue.count == 2 ? String(nameValue[1]) : "", plusIsSpace: true),
                    !name.contains("\0"), !value.contains("\0")
                else {
                    throw HTTPRequestError(message: "the query parameter \(pair) is not validly percent-encoded")
                }
                query.append((name, value))
            }
        }
        self.query = query
    }

    /// The value of header `name` (any case).
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The last value given for query parameter `name`, if any.
    package func parameter(_ name: String) -> String? { query.last { $0.name == name }?.value }

    /// `text` with its %XX escapes decoded (and `+` as a space when `plusIsSpace`); nil for a
    /// broken escape or bytes that are not UTF-8.
    static func decode(_ text: String, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Self.hexValue),
                    let low = iterator.next().flatMap(Self.hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A request target that cannot be decoded: answered 400 with `message`.
package struct HTTPRequestError: Error, Sendable, Equatable {
    /// What is wrong with the target.
    package let message: String
}
