/// A response on its way out through the ``ResponseStep``s, with what the steps need to know
/// of it: the route's answer behind it and the answer cache's entry it came from.
struct Outgoing {
    /// The response as it stands.
    var response: HTTPResponse
    /// The name of the route that answered (for the metrics).
    var route: String
    /// The route's answer behind it; nil for the server's own responses (a 405, OPTIONS, an
    /// error, MCP), which the steps that dress answers leave as they are.
    var answer: EndpointAnswer?
    /// The answer cache's entry of the answer, which keeps its gzipped body and content tag.
    var cached: AnswerCache.Entry?
    /// Whether the body is gzipped (``CompressionStep``): its `ETag` names that representation.
    var isGzipped = false

    /// The server's own `response` (not a route's answer).
    init(_ response: HTTPResponse, route: String) {
        self.response = response
        self.route = route
    }

    /// A route's `answer`, as HTTP before any step dresses it: its status, media type, own
    /// headers, and body (or stream).
    init(answer: EndpointAnswer, route: String, cached: AnswerCache.Entry?) {
        var response = HTTPResponse(
            status: answer.status, headers: [("Content-Type", answer.contentType)] + answer.headers)
        if let stream = answer.stream {
            response.stream = stream
        } else {
            response.body = Array(answer.body.utf8)
        }
        self.init(response, route: route)
        self.answer = answer
        self.cached = cached
    }
}
