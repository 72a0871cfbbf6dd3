import ECBRates
import ECBRatesServer
import Foundation
import TestSupport

/// The server without a socket: a request handed to ``RateService`` in this process and its
/// response read back, as Hummingbird's test framework does for its routers. For routing,
/// parameters, caching headers, CORS, methods, errors and gzip; what needs a socket (limits,
/// slowloris, streaming, signals, real clients) keeps ``ServedStore``.
final class ServiceHarness: Sendable {
    let directory = TemporaryDirectory()
    let store: RatesStore
    let service: RateService

    /// A service on `store` (by default a copy of the bundled history), at `now` (ISO 8601).
    init(
        now: String = "2026-10-01T12:00:00Z", store path: String? = nil,
        settings: RateService.Settings = RateService.Settings()
    ) async throws {
        let url: URL
        if let path { url = URL(fileURLWithPath: path) } else { url = try await PreparedStore.copy(into: directory) }
        store = try RatesStore.forQueries(at: url)
        let moment = try Date(now, strategy: .iso8601)
        service = RateService(store: store, settings: settings, clock: { moment })
    }

    /// The response to `method target` with `headers` (and `body`).
    func request(
        _ target: String, method: String = "GET", headers: [String: String] = [:], body: String = ""
    ) throws -> HTTPResponse {
        let lowered = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        let request = try HTTPRequest(method: method, target: target, headers: lowered, body: Array(body.utf8))
        return service.respond(to: request).response
    }

    /// The body of a response, as text.
    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }
}
