import ECBRates
import Foundation

/// What an endpoint answers before HTTP dresses it: the body, its media type, the store state
/// it was read from (for `ETag` and `Last-Modified`) and how long a cache may keep it.
struct EndpointAnswer: Sendable {
    /// How long the answer stays true.
    enum Freshness: Sendable {
        /// About days before the newest stored one: changed only by an ECB correction.
        case past
        /// About the newest stored day (or open-ended): true until the next publication.
        case current
        /// Not to be cached (health, metrics, a state no token names).
        case uncached
    }

    var body: String
    var contentType = "application/json"
    var token: HistoryToken?
    var freshness: Freshness
    var status = 200
    /// A body written while it is sent, instead of `body` (a long batch conversion).
    var stream: HTTPBodyStream?
    /// The codes of the answer's warnings, for a format that has no room for them (CSV, NDJSON):
    /// sent as `Ecbrates-Warnings`.
    var warningCodes: [String] = []
    /// Headers of its own (a page's Content-Security-Policy), sent with it whatever its status.
    var headers: [(String, String)] = []

    /// A JSON answer, one document and a newline.
    static func json(_ json: JSONText, token: HistoryToken?, freshness: Freshness) -> EndpointAnswer {
        EndpointAnswer(body: json.text + "\n", token: token, freshness: freshness)
    }

    /// An answer rendered as `format` (JSON, NDJSON or CSV), by the answers' one renderer.
    static func rendered(
        _ answer: some RenderableAnswer, as format: OutputFormat, token: HistoryToken?, freshness: Freshness
    ) -> EndpointAnswer {
        EndpointAnswer(
            body: answer.rendered(as: format), contentType: MediaType.of(format), token: token, freshness: freshness)
    }
}

extension EndpointAnswer {
    /// A question's answer rendered as `format`, its warnings in its JSON.
    static func rendered<Answer>(
        _ answered: Answered<Answer>, as format: OutputFormat, token: HistoryToken?, freshness: Freshness
    ) -> EndpointAnswer {
        EndpointAnswer(
            body: answered.rendered(as: format), contentType: MediaType.of(format), token: token, freshness: freshness)
    }
}

/// The media types of the formats the server writes.
enum MediaType {
    static func of(_ format: OutputFormat) -> String {
        switch format {
        case .json: "application/json"
        case .ndjson: "application/x-ndjson"
        case .csv: "text/csv; charset=utf-8"
        case .svg: "image/svg+xml"
        case .text: "text/plain; charset=utf-8"
        }
    }
}
