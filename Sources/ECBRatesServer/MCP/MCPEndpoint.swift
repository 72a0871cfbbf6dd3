import ECBRates
import Foundation

/// `/mcp` on `serve`: the Model Context Protocol over Streamable HTTP, the transport of the MCP
/// specification, from the same ``MCPServer`` as `ecbrates mcp` (one set of tools, two
/// transports). Stateless: each `POST` carries one JSON-RPC message (or a 2025-03-26 batch) and
/// is answered as `application/json` (a request), or `202 Accepted` with no body (a notification
/// or a response); no session is kept, so `GET` (a server-sent stream) and `DELETE` (ending a
/// session) are `405`. Both eras work as over stdio: the 2026-07-28 form, each request with its
/// envelope, and the `initialize`-then-call form.
///
/// Safe to expose, as the specification asks: a request whose `Origin` is neither this server's
/// own (its `Host`) nor one of ``Settings/allowedOrigins`` is refused with 403 (DNS rebinding);
/// with a ``Settings/token``, a request without `Authorization: Bearer <token>` gets 401 and
/// `WWW-Authenticate`; a body over ``Settings/maximumBodyBytes`` gets 413.
package struct MCPEndpoint: Sendable {
    /// How `/mcp` is exposed.
    package struct Settings: Sendable {
        /// Origins (`https://chat.example.com`) a browser-borne request may come from besides
        /// this server's own; `*` for any.
        package var allowedOrigins: [String] = []
        /// The bearer token every request must carry (nil: none needed).
        package var token: String?
        /// The largest request body read (a tool call's arguments are small).
        package var maximumBodyBytes = 1 << 20
        /// The defaults: same-origin only, no token, 1 MiB.
        package init() {}
    }

    /// The path it answers.
    package static let path = "/mcp"

    let server: MCPServer
    let settings: Settings

    /// An endpoint answering with `server`'s tools as `settings` allow.
    package init(server: MCPServer, settings: Settings) {
        self.server = server
        self.settings = settings
    }

    /// The response to `request` (whose path is ``path``) and the route it is counted under.
    package func respond(to request: HTTPRequest) -> (response: HTTPResponse, route: String) {
        if let origin = request.header("origin"), !allows(origin: origin, host: request.header("host")) {
            return (
                ServiceError.response(
                    status: 403,
                    "Origin \(Self.quoted(origin)) may not use /mcp (serve --mcp-origin allows an origin besides the server's own)",
                    code: "forbidden-origin"), "mcp"
            )
        }
        if let token = settings.token {
            let given = request.header("authorization")
            guard let given, given.hasPrefix("Bearer "), Self.same(String(given.dropFirst(7)), token) else {
                var response = ServiceError.response(
                    status: 401, given == nil ? "/mcp needs a bearer token" : "the bearer token is not this server's",
                    code: "unauthorized")
                response.setHeader(
                    "WWW-Authenticate",
                    given == nil ? #"Bearer realm="ecbrates""# : #"Bearer realm="ecbrates", error="invalid_token""#)
                return (response, "mcp")
            }
        }
        switch request.method {
        case "POST": break
        case "OPTIONS":
            return (HTTPResponse(status: 204, headers: [("Allow", "POST, OPTIONS")]), "mcp")
        default:
            // No server-sent stream to open (GET) and no session to end (DELETE): the
            // specification's answer for a server that offers neither is 405.
            var response = ServiceError.response(
                status: 405, "/mcp takes a JSON-RPC message in a POST (this server keeps no stream and no session)")
            response.setHeader("Allow", "POST, OPTIONS")
            return (response, "mcp")
        }
        guard request.body.count <= settings.maximumBodyBytes else {
            return (
                ServiceError.response(
                    status: 413,
                    "the message is \(request.body.count) bytes, more than the \(settings.maximumBodyBytes) /mcp reads"),
                "mcp"
            )
        }
        if let version = request.header("mcp-protocol-version"),
            !(MCPServer.handshakeVersions + MCPServer.modernVersions).contains(version)
        {
            return (
                ServiceError.response(
                    status: 400,
                    "MCP-Protocol-Version \(Self.quoted(version)) is not one this server speaks: \((MCPServer.modernVersions + MCPServer.handshakeVersions).joined(separator: ", "))",
                    code: "bad-request"), "mcp"
            )
        }
        guard let answer = server.handle(String(decoding: request.body, as: UTF8.self)) else {
            // A notification or a response: accepted, nothing to say.
            return (HTTPResponse(status: 202), "mcp")
        }
        return (HTTPResponse(status: 200, contentType: "application/json", text: answer), "mcp")
    }

    /// Whether a request from `origin` may be answered: this server's own (`Host`), an allowed one.
    func allows(origin: String, host: String?) -> Bool {
        if settings.allowedOrigins.contains("*") || settings.allowedOrigins.contains(origin) { return true }
        guard let host, let url = URL(string: origin), let originHost = url.host else { return false }
        let port = url.port.map { ":\($0)" } ?? ""
        let bracketed = originHost.contains(":") ? "[\(originHost)]" : originHost
        return "\(bracketed)\(port)".caseInsensitiveCompare(host) == .orderedSame
    }

    /// `value` quoted for a message, at most 64 characters of it (with its length when longer).
    static func quoted(_ value: String) -> String {
        value.count <= 64 ? "'\(value)'" : "'\(value.prefix(64))…' (\(value.count) characters)"
    }

    /// Compares two tokens in time that does not depend on where they differ.
    static func same(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        var difference = a.count ^ b.count
        for index in 0..<max(a.count, b.count) {
            difference |= Int((index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0))
        }
        return difference == 0
    }
}
