import ECBRates
import ECBRatesServer
import Foundation
import TestSupport
import Testing

/// The steps around every route (CORS, errors to statuses, validators and conditional requests,
/// gzip) apply to every route alike, and the OpenAPI document documents exactly what the route
/// table routes.
struct ResponseStepTests {
    /// A request to each route of the table (and to MCP, an unknown path, a wrong method); but
    /// `POST /api/convert`, whose answer streams through a socket (`BatchConversionTests`).
    static let targets: [(method: String, target: String, body: String)] = [
        ("GET", "/healthz", ""), ("GET", "/metrics", ""), ("GET", "/", ""), ("GET", "/api/openapi.json", ""),
        ("GET", "/api/rate?currencies=USD&date=2024-03-28", ""), ("GET", "/api/currencies", ""),
        ("GET", "/api/series?currencies=USD&from=2024-01-01&to=2024-03-31", ""),
        ("GET", "/api/rate?currencies=XXX", ""), ("GET", "/api/nothing", ""), ("GET", "/api/rate?colour=red", ""),
        ("GET", "/v2/rates?date=2024-03-28", ""), ("GET", "/v2/rate/usd/chf", ""), ("GET", "/v2/rate/US/CHF", ""),
        ("GET", "/latest", ""), ("GET", "/2024-03-28?amount=abc", ""), ("DELETE", "/api/rate", ""),
        ("PUT", "/latest", ""), ("OPTIONS", "/api/series", ""),
        ("POST", "/mcp", #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
    ]

    @Test func everyRouteIsAnsweredThroughEveryStep() async throws {
        let harness = try await ServiceHarness(settings: RateService.Settings(corsOrigin: "https://example.org"))
        for (method, target, body) in Self.targets {
            let headers = [
                "Origin": "https://example.org", "Accept-Encoding": "gzip", "Accept": "application/json",
                "Content-Type": "text/csv", "MCP-Protocol-Version": "2025-06-18",
            ]
            let response = try harness.request(target, method: method, headers: headers, body: body)
            let label = "\(method) \(target) → \(response.status)"
            // CORS: every response, errors and the server's own included.
            #expect(response.header("Access-Control-Allow-Origin") == "https://example.org", "\(label)")
            #expect(response.headers.contains { $0.name == "Vary" && $0.value == "Origin" }, "\(label)")
            if response.status >= 400 && target != "/mcp" {
                // Errors: one JSON shape, with the status inside, never cached (MCP's are
                // JSON-RPC's, as its specification says).
                let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                #expect(json?["status"] as? Int == response.status, "\(label)")
                #expect(json?["message"] as? String != nil, "\(label)")
                #expect(response.header("ETag") == nil, "\(label)")
            }
            guard response.status == 200, let etag = response.header("ETag") else { continue }
            // Validators: a 200 with an ETag is a 304 when asked again with it, its body empty.
            let again = try harness.request(
                target, method: method, headers: headers.merging(["If-None-Match": etag]) { $1 }, body: body)
            #expect(again.status == 304 && again.body.isEmpty, "\(label): If-None-Match \(etag)")
            #expect(again.header("Access-Control-Allow-Origin") == "https://example.org", "\(label)")
            // gzip: each representation its own tag.
            #expect(
                (response.header("Content-Encoding") == "gzip") == etag.hasSuffix("-gzip\""),
                "\(label): \(etag)")
        }
    }

    /// Each path and method the OpenAPI document names is routed, and no other: a method no
    /// route takes is a 405 whose `Allow` lists exactly the document's methods for the path
    /// (and HEAD, OPTIONS); each documented GET is answered by its route, not refused as unknown.
    @Test func theDocumentIsTheRouteTable() async throws {
        let harness = try await ServiceHarness()
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.document(version: "1").text.utf8))
                as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(paths.count == Questions.all.count + 1, "a path per question, and the document's own")
        for (path, operations) in paths {
            let documented = Set(operations.keys.map { $0.uppercased() })
            let refused = try harness.request(path, method: "PATCH")
            #expect(refused.status == 405, "PATCH \(path) is not documented, and not routed")
            let allowed = Set(
                (refused.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(
                allowed.subtracting(["HEAD", "OPTIONS"]) == documented,
                "\(path): Allow \(allowed) against the document's \(documented)")
            guard documented.contains("GET") else { continue }
            let response = try harness.request(path)
            #expect(response.status != 405, "GET \(path) is documented and must be routed")
            let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(json?["code"] as? String != "not-found", "GET \(path) is documented")
        }
    }
}
