import ECBRates
import Foundation

extension PageContent {
    /// The server's status: the lines `ecbrates status` prints (store, days, freshness, history
    /// coverage, last import).
    var statusSection: String {
        var body = ""
        switch storeStatus {
        case .notAsked: break
        case .failed(let failure): body = Self.failureBlock(failure, id: "status-error")
        case .answered(let answered):
            body =
                Self.definitionList(answered.answer.fields, id: "status-facts")
                + "<p>The same as <a href=\"/api/status\"><code>/api/status</code></a>; <a href=\"/healthz\"><code>/healthz</code></a> for a probe, <a href=\"/metrics\"><code>/metrics</code></a> for Prometheus.</p>"
        }
        return """
            <section id="status" aria-labelledby="status-title">
            <h2 id="status-title">This server's store</h2>
            \(body)
            </section>

            """
    }

    /// `/api/`'s documentation, rendered from its OpenAPI document: each operation, what it
    /// answers, and its parameters.
    var apiSection: String {
        let document = OpenAPIDocument.document(version: version)
        let operations = (document["paths"]?.members ?? []).compactMap { path, item -> String? in
            guard let operation = item["get"] else { return nil }
            let parameters = (operation["parameters"]?.elements ?? []).map { parameter -> String in
                let name = parameter["name"]?.string ?? ""
                let required = parameter["required"]?.bool == true ? " <em>(required)</em>" : ""
                let schema = parameter["schema"]
                let kind =
                    schema?["enum"]?.elements.map { $0.compactMap(\.string).joined(separator: ", ") }
                    ?? schema?["type"]?.string ?? ""
                return
                    "<tr><th scope=\"row\"><code>\(HTMLText.escape(name))</code>\(required)</th><td>\(HTMLText.escape(kind))</td><td>\(HTMLText.escape(parameter["description"]?.string ?? ""))</td></tr>"
            }.joined()
            let table =
                parameters.isEmpty
                ? "<p>No parameters.</p>"
                : "<table><thead><tr><th scope=\"col\">Parameter</th><th scope=\"col\">Values</th><th scope=\"col\">Meaning</th></tr></thead><tbody>\(parameters)</tbody></table>"
            let summary = operation["summary"]?.string ?? ""
            return """
                <details class="operation"><summary><code>GET \(HTMLText.escape(path))</code> \(HTMLText.escape(summary))</summary>
                <p>\(HTMLText.escape(operation["description"]?.string ?? ""))</p>
                \(table)
                </details>
                """
        }.joined(separator: "\n")
        return """
            <section id="api" aria-labelledby="api-title">
            <h2 id="api-title">The HTTP API</h2>
            <p>\(HTMLText.escape(document["info"]?["description"]?.string ?? ""))</p>
            <p>The OpenAPI 3.1 document: <a href="/api/openapi.json"><code>/api/openapi.json</code></a>. Add <code>format=csv</code> or <code>format=ndjson</code> for those formats.</p>
            \(operations)
            </section>

            """
    }

    /// The MCP tools `ecbrates mcp` offers: one per question, its arguments its fields.
    var mcpSection: String {
        let tools = MCPTool.all.map { tool in
            let arguments = tool.question.fields.map { "<code>\(HTMLText.escape($0.name))</code>" }
            return
                "<li><strong><code>\(HTMLText.escape(tool.name))</code></strong>: \(HTMLText.escape(tool.question.title)). \(HTMLText.escape(tool.question.summary))"
                + (arguments.isEmpty ? "" : " Arguments: \(arguments.joined(separator: ", ")).") + "</li>"
        }.joined(separator: "\n")
        return """
            <section id="mcp" aria-labelledby="mcp-title">
            <h2 id="mcp-title">MCP tools</h2>
            <p><code>ecbrates mcp</code> speaks the Model Context Protocol on standard input and output; each tool answers with the JSON of the API operation of the same name (its <code>outputSchema</code>), warnings included.</p>
            <ul id="mcp-tools">
            \(tools)
            </ul>
            </section>

            """
    }
}

extension JSONText {
    /// The member `key` of an object (nil for anything else).
    subscript(key: String) -> JSONText? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// An object's members, in order.
    var members: [(String, JSONText)]? {
        if case .object(let pairs) = self { return pairs }
        return nil
    }

    /// An array's elements.
    var elements: [JSONText]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// A string's value.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A Boolean's value.
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}
