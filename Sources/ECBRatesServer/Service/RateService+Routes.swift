import ECBRates
import Foundation

extension RateService {
    /// Every route the server answers (but `/mcp`, ``MCPEndpoint``, which answers its own
    /// methods and statuses as the MCP specification asks), in the order they are tried: a
    /// request goes to the first route whose paths and method it matches; a path some route
    /// takes with another method is a 405 naming those methods (`Allow`), as OPTIONS does.
    static let routes: [Route] = [
        Route(paths: .exact("/healthz"), methods: ["GET"], name: { _ in "healthz" }, cacheable: false) {
            (try $0.service.health(now: $0.now), "healthz")
        },
        Route(paths: .exact("/metrics"), methods: ["GET"], name: { _ in "metrics" }, cacheable: false) {
            (try $0.service.metricsAnswer(now: $0.now), "metrics")
        },
        Route(
            paths: .exact("/"), methods: ["GET"], name: { _ in "page" },
            // The page's chart over a range of its choosing.
            heavy: { $0.query.contains { $0.name == "start" && !$0.value.isEmpty } ? "page" : nil }
        ) { asked in
            // A browser gets the page; a program, the entry points.
            if RateService.prefersHTML(asked.request.header("accept")) {
                return (try asked.service.page.answer(asked.request, now: asked.now), "page")
            }
            return (.json(SiteIndex.json, token: nil, freshness: .past), "index")
        },
        Route(paths: .prefix("/assets/"), methods: ["GET"], name: { _ in "assets" }) { asked in
            guard let asset = try PageAssets.answer(asked.request) else {
                throw ServiceError(status: 404, "no asset \(asked.request.path)", code: "not-found")
            }
            return (asset, "assets")
        },
        Route(
            paths: .exact("/api/openapi.json"), methods: ["GET"], name: { _ in "api/openapi" },
            openAPI: { [("/api/openapi.json", OpenAPIDocument.selfOperation())] }
        ) {
            (
                .json(OpenAPIDocument.document(version: $0.service.settings.version), token: nil, freshness: .past),
                "api/openapi"
            )
        },
        Route(
            paths: .exact("/api/convert"), methods: ["POST"], name: { _ in "api/convert" }, cacheable: false,
            openAPI: { [("/api/convert", OpenAPIDocument.batchOperation())] }
        ) {
            (try BatchEndpoint(store: $0.service.store).answer($0.request, now: $0.now), "api/convert-batch")
        },
        Route(
            paths: .prefix("/api/"), methods: ["GET"],
            name: { "api/" + ($0.dropFirst(5).split(separator: "/").first.map(String.init) ?? "") },
            // A question that reads a range of days.
            heavy: {
                Questions.named(String($0.path.dropFirst(5)))?.readsRange == true ? "api/" + $0.path.dropFirst(5) : nil
            },
            openAPI: { Questions.all.map { ("/api/\($0.name)", OpenAPIDocument.operation($0)) } }
        ) { try $0.api.answer(String($0.request.path.dropFirst(5)), $0.request, now: $0.now) },
        Route(
            paths: .prefix("/v2/"), methods: ["GET"], name: { _ in "v2" },
            heavy: { $0.path.hasPrefix("/v2/rates") && $0.query.contains { $0.name == "from" } ? "v2/rates" : nil },
            statuses: .frankfurter
        ) { try FrankfurterV2(api: $0.api).answer(String($0.request.path.dropFirst(3)), $0.request, now: $0.now) },
        Route(
            paths: .rest, methods: ["GET"], name: { _ in "v1" }, heavy: { $0.path.contains("..") ? "v1" : nil },
            statuses: .frankfurter
        ) { asked in
            let path = asked.request.path
            return try FrankfurterV1(api: asked.api).answer(
                path.hasPrefix("/v1/") ? String(path.dropFirst(3)) : path, asked.request, now: asked.now)
        },
    ]
}
