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
    static func apiSection(version: String) -> String {
        let document = OpenAPIDocument.document(version: version)
        let operations = (document["paths"]?.members ?? []).compactMap { path, item -> String? in
            guard let operation = item["get"] else { return nil }
            let parameters = (operation["parameters"]?.elements ?? []).map { parameter -> String in
                let name = parameter["name"]?.string ?? ""
                let required = parameter["required"]?.bool == true ? " <em>(required)</em>" : ""
                return
                    "<tr><th scope=\"row\"><code>\(HTMLText.escape(name))</code>\(required)</th><td>\(Self.schemaWords(parameter["schema"]))</td><td>\(Self.prose(parameter["description"]?.string ?? ""))</td></tr>"
            }.joined()
            let table =
                parameters.isEmpty
                ? "<p>No parameters.</p>"
                : "<table><thead><tr><th scope=\"col\">Parameter</th><th scope=\"col\">Values</th><th scope=\"col\">Meaning</th></tr></thead><tbody>\(parameters)</tbody></table>"
            let responses = (operation["responses"]?.members ?? []).map { status, response in
                "<li><strong>\(HTMLText.escape(status))</strong>: \(Self.prose(response["description"]?.string ?? ""))</li>"
            }.joined()
            let description = operation["description"]?.string ?? ""
            return """
                <details class="operation"><summary><code>GET \(HTMLText.escape(path))</code> \(Self.prose(operation["summary"]?.string ?? ""))</summary>
                \(description.isEmpty ? "" : "<p>\(Self.prose(description))</p>")
                \(table)
                <p>Responses:</p><ul class="responses">\(responses)</ul>
                </details>
                """
        }.joined(separator: "\n")
        return """
            <section id="api" aria-labelledby="api-title">
            <h2 id="api-title">The HTTP API</h2>
            <p>\(Self.prose(document["info"]?["description"]?.string ?? ""))</p>
            <p>The OpenAPI 3.1 document: <a href="/api/openapi.json"><code>/api/openapi.json</code></a>. Add <code>format=csv</code> or <code>format=ndjson</code> for those formats.</p>
            \(operations)
            </section>

            """
    }

    /// The MCP tools `ecbrates mcp` offers: one per question, its arguments its fields.
    static var mcpSection: String {
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

extension PageContent {
    /// A description from the OpenAPI document as HTML: escaped, its `code` spans (Markdown's
    /// backticks, as the document writes them) as `<code>`.
    static func prose(_ text: String) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count % 2 == 1 else { return HTMLText.escape(text) }
        return parts.enumerated().map { index, part in
            index % 2 == 1 ? "<code>\(HTMLText.escape(String(part)))</code>" : HTMLText.escape(String(part))
        }.joined()
    }

    /// What a parameter's JSON Schema allows, in words: its type and format, its choices, its
    /// pattern, bounds and default.
    static func schemaWords(_ schema: JSONText?) -> String {
        guard let schema else { return "" }
        var words: [String] = []
        if let choices = schema["enum"]?.elements {
            words.append(
                "one of "
                    + choices.compactMap(\.string).map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")
            )
        } else {
            let type = schema["type"]?.string ?? ""
            words.append(HTMLText.escape(schema["format"]?.string.map { "\(type) (\($0))" } ?? type))
        }
        if let pattern = schema["pattern"]?.string { words.append("matching <code>\(HTMLText.escape(pattern))</code>") }
        if let minimum = schema["minimum"], let maximum = schema["maximum"] {
            words.append("from \(HTMLText.escape(minimum.text)) to \(HTMLText.escape(maximum.text))")
        }
        if let value = schema["default"] { words.append("default <code>\(HTMLText.escape(value.text))</code>") }
        return words.joined(separator: "; ")
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
