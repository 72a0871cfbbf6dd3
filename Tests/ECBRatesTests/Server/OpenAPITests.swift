import ECBRates
import ECBRatesServer
import Foundation
import TestSupport
import Testing

/// The OpenAPI document of `/api/`, checked by real tools: `openapi-spec-validator` accepts it,
/// and Schemathesis runs against a live `serve` with it (seeded; no 5xx, every status and
/// response as documented). And every MCP tool's result validates against the tool's
/// `outputSchema` (the `jsonschema` package).
@Suite(.serialized) struct OpenAPITests {
    @Test func theDocumentIsValidAndALiveServerKeepsIt() async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let served = try await ServedStore()
        let directory = TemporaryDirectory()
        let printed = try CommandRun.process(["serve", "--print-openapi"])
        #expect(printed.status == 0, "\(printed)")
        let spec = directory.file("openapi.json")
        try Data(printed.out.utf8).write(to: spec)
        // The served document is the printed one.
        let live = try RawHTTP.get("/api/openapi.json", port: served.port)
        #expect(live.body == printed.out)
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                PythonTools.serverScript("openapi_check.py"), served.baseURL, spec.path, "--seed", "20261127",
                "--max-examples", "40",
            ], timeout: 600)
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        let summary = try #require(run.out.firstMatch(of: /operations (\d+), requests (\d+), failures (\d+)/))
        #expect(Int(summary.1) == Questions.all.count + 2 && Int(summary.3) == 0, "\(run.out)")  // and openapi.json, POST /api/convert
        #expect(Int(summary.2)! >= 300, "only \(summary.2) requests: \(run.out)")
    }

    /// Each tool's result (several arguments each, good ones) against its `outputSchema`, in both
    /// eras of the protocol.
    @Test func everyToolsResultMatchesItsOutputSchema() async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let harness = try await ServiceHarness(now: "2026-10-28T12:00:00Z")
        let now = try Date("2026-10-28T12:00:00Z", strategy: .iso8601)
        let mcp = MCPServer(store: harness.store, version: "test", clock: { now })
        let calls: [(String, [String: Any])] = [
            ("rate", ["currencies": "USD", "date": "2024-03-30"]), ("rate", ["currencies": ["USD", "JPY"]]),
            ("rate", [:]), ("rate", ["currencies": "DEM", "date": "2001-12-28", "base": "USD"]),
            ("convert", ["amount": "1234.56", "from": "GBP", "to": "JPY", "date": "2024-03-29"]),
            ("convert", ["amount": 100, "from": "USD", "to": "EUR", "fallback": "interpolate", "date": "2024-03-30"]),
            ("latest", ["currencies": "USD,HRK"]), ("latest", ["base": "CHF"]),
            ("series", ["currencies": "USD,CHF", "from": "2022-01-01", "to": "2022-12-31", "group": "month"]),
            ("series", ["currencies": "USD", "from": "2026-09-01", "partial": true]),
            ("stats", ["currency": "CHF", "from": "2022-01-01", "to": "2022-12-31"]),
            ("currencies", [:]), ("corrections", [:]), ("status", [:]),
        ]
        var pairs: [Any] = []
        for modern in [false, true] {
            var listing: [String: Any] = ["jsonrpc": "2.0", "id": 0, "method": "tools/list"]
            if modern { listing["params"] = ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]] }
            let tools = try #require(
                (try Self.send(mcp, listing)["tools"] as? [[String: Any]]).map {
                    Dictionary(uniqueKeysWithValues: $0.map { ($0["name"] as! String, $0) })
                })
            #expect(Set(tools.keys) == Set(Questions.all.map { $0.name }))
            for (name, arguments) in calls {
                var params: [String: Any] = ["name": name, "arguments": arguments]
                if modern { params["_meta"] = ["io.modelcontextprotocol/protocolVersion": "2026-07-28"] }
                let result = try Self.send(mcp, ["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params])
                #expect(result["isError"] as? Bool == false, "\(name) \(arguments): \(result)")
                pairs.append([
                    "label": "\(modern ? "2026-07-28" : "2025-11-25") \(name) \(arguments)",
                    "schema": tools[name]!["outputSchema"]!, "instance": result["structuredContent"] ?? NSNull(),
                ])
            }
        }
        let directory = TemporaryDirectory()
        let file = directory.file("pairs.json")
        try JSONSerialization.data(withJSONObject: pairs).write(to: file)
        let script = """
            import json, sys, jsonschema
            failures = 0
            pairs = json.load(open(sys.argv[1]))
            for pair in pairs:
                jsonschema.Draft202012Validator.check_schema(pair["schema"])
                errors = list(jsonschema.Draft202012Validator(pair["schema"]).iter_errors(pair["instance"]))
                for error in errors[:3]:
                    failures += 1
                    print(pair["label"], "/".join(map(str, error.absolute_path)), error.message[:300])
            print(f"{len(pairs)} results, {failures} failures")
            sys.exit(1 if failures else 0)
            """
        let run = try SpawnedProcess.run(PythonTools.withPackages, ["-c", script, file.path])
        #expect(run.status == 0 && run.out.hasSuffix("\(pairs.count) results, 0 failures\n"), "\(run.out)\(run.err)")
    }

    static func send(_ server: MCPServer, _ message: [String: Any]) throws -> [String: Any] {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
        let response = try #require(server.handle(line))
        let object = try JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any]
        return try #require(object?["result"] as? [String: Any], "\(response)")
    }
}
