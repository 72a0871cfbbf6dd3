import Foundation

/// Validators and conditional requests for a route's answer: a strong `ETag` naming its bytes
/// (the gzipped representation its own), `Last-Modified` from the data, `Cache-Control` from
/// how long it stays true, and a `304` when the client's copy is current (RFC 9110 13.1, RFC
/// 9111), from the service's store and clock. An answer that is not a 200, or not to be cached,
/// says `no-store`; so does a stream.
struct ValidatorStep: ResponseStep {
    func respond(to request: HTTPRequest, in service: RateService, next: () throws -> Outgoing) throws -> Outgoing {
        var outgoing = try next()
        guard let answer = outgoing.answer else { return outgoing }
        guard answer.stream == nil, answer.status == 200, answer.freshness != .uncached else {
            outgoing.response.headers.append(("Cache-Control", "no-store"))
            return outgoing
        }
        let now = service.now()
        // The validator names the bytes, not the store's history: the same answer has the same
        // ETag on every replica and across imports that change nothing, and a correction changes
        // exactly the answers that include it. Strong (RFC 9110 8.8.3): each representation its
        // own, the gzipped one (zlib at a fixed level: the same bytes everywhere) suffixed.
        let tag =
            outgoing.cached?.contentTag { RateService.contentTag(answer) } ?? RateService.contentTag(answer)
        let etag = "\"\(tag)\(outgoing.isGzipped ? "-gzip" : "")\""
        // Appended in place: a copy of the headers would cost every answer an allocation.
        outgoing.response.headers.append(("ETag", etag))
        let modified = answer.token.flatMap { service.lastModified(at: $0, now: now) }
        if let modified { outgoing.response.headers.append(("Last-Modified", modified.text)) }
        outgoing.response.headers.append(
            ("Cache-Control", service.cacheControl(answer.freshness, token: answer.token, now: now)))
        outgoing.response.headers.append(("Vary", "Accept, Accept-Encoding"))
        if !answer.warningCodes.isEmpty {
            outgoing.response.headers.append(("Ecbrates-Warnings", answer.warningCodes.joined(separator: ", ")))
        }
        if Self.isCurrent(request, etag: etag, modified: modified?.date) {
            outgoing.response.status = 304
            outgoing.response.body = []
        }
        return outgoing
    }

    /// Whether the client's copy is current: If-None-Match names the tag (compared weakly, RFC
    /// 9110 13.1.2: W/ is ignored on either side) or `*`; without it, If-Modified-Since is not
    /// before `modified` (to the second).
    static func isCurrent(_ request: HTTPRequest, etag: String, modified: Date?) -> Bool {
        if let match = request.header("if-none-match") {
            let tags = match.split(separator: ",").map {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            }
            return tags.contains(etag) || tags.contains("*")
        }
        guard let since = request.header("if-modified-since").flatMap(HTTPDate.parse), let modified else {
            return false
        }
        return Int(modified.timeIntervalSince1970) <= Int(since.timeIntervalSince1970)
    }
}
