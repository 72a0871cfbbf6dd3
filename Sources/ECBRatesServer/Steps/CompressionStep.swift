/// gzip (RFC 9110 8.4.1) for a client that takes it, when it pays (``GzipEncoder/minimumBytes``):
/// one more representation of a route's answer, its bytes the same everywhere (zlib at a fixed
/// level), made once for an answer the cache keeps. A stream is sent as it is.
struct CompressionStep: ResponseStep {
    func respond(to request: HTTPRequest, in service: RateService, next: () throws -> Outgoing) throws -> Outgoing {
        var outgoing = try next()
        guard outgoing.answer != nil, outgoing.response.stream == nil,
            outgoing.response.body.count >= GzipEncoder.minimumBytes,
            GzipEncoder.isAccepted(by: request.header("accept-encoding"))
        else { return outgoing }
        let plain = outgoing.response.body
        let gzipped =
            outgoing.cached?.gzipped { GzipEncoder.shared?.encode(plain) } ?? GzipEncoder.shared?.encode(plain)
        guard let gzipped else { return outgoing }
        outgoing.response.body = gzipped
        outgoing.response.headers.append(("Content-Encoding", "gzip"))
        outgoing.isGzipped = true
        return outgoing
    }
}
