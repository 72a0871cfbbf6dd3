/// Cross-origin reads (`serve --cors-origin`): every response to an allowed origin says so, and
/// names the validators a script may read; a response that differs by origin says `Vary: Origin`.
/// A preflight (OPTIONS) is answered by the route table with `Allow`; this step adds what CORS asks.
struct CORSStep: ResponseStep {
    /// The origin allowed (`*`: any).
    let origin: String

    func respond(to request: HTTPRequest, in service: RateService, next: () throws -> Outgoing) throws -> Outgoing {
        var outgoing = try next()
        if request.method == "OPTIONS", outgoing.route == "options", let allowed = outgoing.response.header("allow") {
            outgoing.response.headers.append(("Access-Control-Allow-Methods", allowed))
            outgoing.response.headers.append(
                ("Access-Control-Allow-Headers", request.header("access-control-request-headers") ?? ""))
            outgoing.response.headers.append(("Access-Control-Max-Age", "86400"))
        }
        let asked = request.header("origin")
        if origin == "*" || asked == origin {
            outgoing.response.setHeader("Access-Control-Allow-Origin", origin == "*" ? "*" : origin)
            outgoing.response.headers.append(("Access-Control-Expose-Headers", "ETag, Last-Modified"))
        }
        // The answer differs by Origin (the header is there or not): a shared cache must not
        // give one origin's copy to another.
        if origin != "*" { outgoing.response.headers.append(("Vary", "Origin")) }
        return outgoing
    }
}
