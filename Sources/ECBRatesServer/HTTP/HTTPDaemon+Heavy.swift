extension HTTPDaemon {
    /// Whether a request is heavy (``HTTPDaemonSettings/maximumHeavy``), and the route to count
    /// its refusal under.
    package typealias Weigher = @Sendable (HTTPRequest) -> (heavy: Bool, route: String)
    /// The answer to a heavy request refused because `maximumHeavy` are in flight, given the
    /// refusal's words; nil: the usual `503` with `Retry-After` (an MCP call gets its own answer).
    package typealias Refuser = @Sendable (HTTPRequest, String) -> HTTPResponse?
}
