import ECBRates
import Foundation

/// The Model Context Protocol over stdio (JSON-RPC 2.0, one message per line): `initialize`,
/// `ping`, `tools/list` and `tools/call` of the ``MCPTool`` tools, one per ``Question``. A tool's
/// answer is exactly the JSON `/api/` answers (one question value, one renderer), as text and as
/// `structuredContent`; a question that fails is a tool result with `isError`, in MCP's words.
package final class MCPServer: Sendable {
    /// The revisions reached through `initialize` (the handshake era), newest first; a client
    /// asking for another is answered with the newest, and decides (as the protocol says).
    package static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The revisions without a handshake, where every request carries its envelope in `_meta`
    /// and `server/discover` says what the server speaks: 2026-07-28, the current one.
    package static let modernVersions = ["2026-07-28"]

    private static let versionKey = "io.modelcontextprotocol/protocolVersion"

    private let store: RatesStore
    private let version: String
    private let clock: @Sendable () -> Date
    private let storeLocation: StoreLocation?
    private let observe: (@Sendable (_ tool: String, _ failed: Bool) -> Void)?

    /// A server answering from `store` (found at `storeLocation`, which the status tool names);
    /// `version` is what `serverInfo` says, `clock` is "now"; `observe` hears of each tool call
    /// (the tool, and whether it failed), for the metrics.
    package init(
        store: RatesStore, storeLocation: StoreLocation? = nil, version: String,
        clock: @escaping @Sendable () -> Date = { Date() },
        observe: (@Sendable (_ tool: String, _ failed: Bool) -> Void)? = nil
    ) {
        self.store = store
        self.storeLocation = storeLocation
        self.version = version
        self.clock = clock
        self.observe = observe
    }

    /// The tool a message calls (`tools/call`'s `name`), if it is such a call.
    package static func calledTool(in body: [UInt8]) -> String? {
        let body = Array(JSONNumberLiteral.protect(String(decoding: body, as: UTF8.self)).utf8)
        guard let message = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            message["method"] as? String == "tools/call"
        else { return nil }
        return (message["params"] as? [String: Any])?["name"] as? String
    }

    /// The answer to a `tools/call` in `body` that the server is too busy to make now (a range
    /// past `--max-heavy`): its own id, a tool result with `isError` and the error's JSON (code
    /// `busy`, status 503), so that a model reads why and retries; nil when `body` is no call.
    package static func busyAnswer(to body: [UInt8], saying words: String) -> String? {
        let body = Array(JSONNumberLiteral.protect(String(decoding: body, as: UTF8.self)).utf8)
        guard let message = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            message["method"] as? String == "tools/call", let id = message["id"]
        else { return nil }
        let meta = (message["params"] as? [String: Any])?["_meta"] as? [String: Any]
        let modern = (meta?["io.modelcontextprotocol/protocolVersion"] as? String).map(modernVersions.contains) ?? false
        var fields: [(String, JSONText)] = [
            ("content", .array([.object([("type", .string("text")), ("text", .string(words))])])),
            (
                "structuredContent",
                .object([("message", .string(words)), ("status", .number(503)), ("code", .string("busy"))])
            ),
            ("isError", .bool(true)),
        ]
        if modern { fields.append(("resultType", .string("complete"))) }
        return result(id: idText(id), .object(fields))
    }

    /// Reads messages with `readLine` until it returns nil (the client closed stdin), writing
    /// each response (one line) with `write`.
    package func serve(readLine: () -> String?, write: (String) -> Void) {
        while let line = readLine() {
            if let response = handle(line) { write(response + "\n") }
        }
    }

    /// The response to one message (nil for a notification or a response).
    package func handle(_ line: String) -> String? {
        guard !line.allSatisfy(\.isWhitespace) else { return nil }
        // Numbers are kept as their text (JSONNumberLiteral): 1e400 is a bad argument of its
        // call, answered with the call's id, not a message that cannot be read.
        let protected = JSONNumberLiteral.protect(line)
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(protected.utf8), options: [.fragmentsAllowed])
        else {
            return Self.error(id: .null, code: -32700, "parse error: the line is not JSON")
        }
        if let batch = object as? [Any] {
            // Batches (2025-03-26) answered message by message, in one array.
            let answers = batch.compactMap { message($0) }
            return answers.isEmpty ? nil : "[" + answers.joined(separator: ",") + "]"
        }
        return message(object)
    }

    private func message(_ object: Any) -> String? {
        guard let message = object as? [String: Any], message["jsonrpc"] as? String == "2.0" else {
            let id = ((object as? [String: Any])?["id"]).map(Self.idText) ?? .null
            return Self.error(id: id, code: -32600, "invalid request: not a JSON-RPC 2.0 message")
        }
        let rawID = message["id"]
        // (A method that was a number is a string of its text here: JSONNumberLiteral.)
        guard let method = message["method"] as? String, JSONNumberLiteral.literal(method) == nil else {
            // A response to us (none is expected) has a result or an error; anything else is wrong.
            if message["result"] != nil || message["error"] != nil { return nil }
            return Self.error(id: rawID.map(Self.idText) ?? .null, code: -32600, "invalid request: no method")
        }
        guard let rawID else { return nil }  // a notification (initialized, cancelled)
        // An id is a string, a number (kept as its text) or null; true, an object or a list is not.
        guard rawID is String || rawID is NSNull else {
            return Self.error(id: .null, code: -32600, "invalid request: an id is a string, a number or null")
        }
        let id = Self.idText(rawID)
        let params = message["params"] as? [String: Any] ?? [:]
        // A request of the modern era names its revision in its envelope.
        let envelope = params["_meta"] as? [String: Any]
        let asked = envelope?[Self.versionKey] as? String
        if let asked, !Self.modernVersions.contains(asked) {
            return Self.unsupported(id: id, asked: asked)
        }
        let modern = asked != nil
        // The handshake's methods do not exist in the modern revision.
        if modern && (method == "initialize" || method == "ping") {
            return Self.error(id: id, code: -32601, "method not found in revision \(asked ?? ""): \(method)")
        }
        switch method {
        case "server/discover":
            guard modern else { return Self.unsupported(id: id, asked: "(none)") }
            return Self.result(
                id: id,
                .object([
                    ("supportedVersions", .array(Self.modernVersions.map { .string($0) })),
                    ("capabilities", .object([("tools", .object([("listChanged", .bool(false))]))])),
                    ("instructions", .string(Self.instructions)), ("resultType", .string("complete")),
                    ("ttlMs", .number(0)), ("cacheScope", .string("public")),
                    (
                        "_meta",
                        .object([
                            (
                                "io.modelcontextprotocol/serverInfo",
                                .object([("name", .string("ecbrates")), ("version", .string(version))])
                            )
                        ])
                    ),
                ]))
        case "initialize":
            let offered = params["protocolVersion"] as? String
            let chosen = offered.flatMap { Self.handshakeVersions.contains($0) ? $0 : nil } ?? Self.handshakeVersions[0]
            return Self.result(
                id: id,
                .object([
                    ("protocolVersion", .string(chosen)),
                    ("capabilities", .object([("tools", .object([("listChanged", .bool(false))]))])),
                    (
                        "serverInfo",
                        .object([
                            ("name", .string("ecbrates")), ("title", .string("ECB euro reference rates")),
                            ("version", .string(version)),
                        ])
                    ),
                    ("instructions", .string(Self.instructions)),
                ]))
        case "ping":
            return Self.result(id: id, .object([]))
        case "tools/list":
            var fields: [(String, JSONText)] = [("tools", .array(MCPTool.all.map { $0.listing(modern: modern) }))]
            // The tools never change while the server runs: a client may keep the list a day.
            if modern {
                fields += [
                    ("resultType", .string("complete")), ("ttlMs", .number(86_400_000)),
                    ("cacheScope", .string("public")),
                ]
            }
            return Self.result(id: id, .object(fields))
        case "tools/call":
            guard let name = params["name"] as? String, let tool = MCPTool.all.first(where: { $0.name == name }) else {
                let named = (params["name"]).map { JSONNumberLiteral.literal($0) ?? "\($0)" } ?? "(none)"
                return Self.error(id: id, code: -32602, "unknown tool: \(QuestionRefusal.shown(named))")
            }
            let given = params["arguments"]
            guard given == nil || given is [String: Any] else {
                return Self.error(id: id, code: -32602, "the arguments of \(name) are not an object")
            }
            return Self.result(id: id, call(tool, arguments: given as? [String: Any] ?? [:], modern: modern))
        default:
            return Self.error(id: id, code: -32601, "method not found: \(method)")
        }
    }

    /// A tool's result: the question's answer, the JSON `/api/` and `--format json` give (warnings
    /// included), as text and as `structuredContent`; or the failure, in MCP's words, with
    /// `isError` and the error's JSON (`{"message","status","code"}`, as `/api/` answers it).
    func call(_ tool: MCPTool, arguments: [String: Any], modern: Bool) -> JSONText {
        var fields: [(String, JSONText)]
        var failed = false
        do {
            let text = try answer(tool.question, arguments)
            // Before 2026-07-28 structuredContent is an object: a list goes in under the tool's name.
            let structured: JSONText = modern || !tool.isList ? .raw(text) : .object([(tool.name, .raw(text))])
            fields = [
                ("content", .array([.object([("type", .string("text")), ("text", .string(text))])])),
                ("structuredContent", structured), ("isError", .bool(false)),
            ]
        } catch {
            failed = true
            let text = ServiceError.message(of: error, door: .mcp)
            let status = ServiceError.status(of: error)
            let json = JSONText.object([
                ("message", .string(text)), ("status", .number(Double(status))),
                ("code", .string(ServiceError.code(of: error, status: status))),
            ])
            fields = [
                ("content", .array([.object([("type", .string("text")), ("text", .string(text))])])),
                ("structuredContent", json), ("isError", .bool(true)),
            ]
        }
        if modern { fields.append(("resultType", .string("complete"))) }
        observe?(tool.name, failed)
        return .object(fields)
    }

    /// The JSON answer (without its line break) of `Q` asked with `arguments`, straight from
    /// the question's value: no URL is made.
    private func answer<Q: Question>(_: Q.Type, _ arguments: [String: Any]) throws -> String {
        let question = try Q.asking(try QuestionInput.reading(Q.fields, json: arguments))
        let answered = try NativeAPI(store: store, storeLocation: storeLocation).ask(question, now: clock()).answered
        let text = answered.rendered(as: .json)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    private static let instructions =
        "The European Central Bank's euro reference exchange rates from a local store, exact to the digit. Every answer names the publication day it used; a day without one answers with the previous publication unless fallback says otherwise."

    // MARK: JSON-RPC

    /// -32022: a revision this server does not speak, with those it does.
    private static func unsupported(id: JSONText, asked: String) -> String {
        JSONText.object([
            ("jsonrpc", .string("2.0")), ("id", id),
            (
                "error",
                .object([
                    ("code", .number(-32_022)), ("message", .string("unsupported protocol version: \(asked)")),
                    (
                        "data",
                        .object([
                            ("supported", .array(modernVersions.map { .string($0) })), ("requested", .string(asked)),
                        ])
                    ),
                ])
            ),
        ]).text
    }

    private static func idText(_ id: Any) -> JSONText {
        if let number = JSONNumberLiteral.literal(id) { return .raw(number) }
        switch id {
        case let string as String: return .string(string)
        case let number as NSNumber: return .raw("\(number)")
        default: return .null
        }
    }

    private static func result(id: JSONText, _ result: JSONText) -> String {
        JSONText.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]).text
    }

    private static func error(id: JSONText, code: Int, _ message: String) -> String {
        JSONText.object([
            ("jsonrpc", .string("2.0")), ("id", id),
            ("error", .object([("code", .number(Double(code))), ("message", .string(message))])),
        ]).text
    }
}
