import ECBRates
import Foundation

/// The Model Context Protocol over stdio (JSON-RPC 2.0, one message per line): `initialize`,
/// `ping`, `tools/list` and `tools/call` of the ``MCPTool`` tools. A tool's answer is exactly the
/// JSON `/api/` answers (one model, one renderer), as text and as `structuredContent`; a query
/// that fails is a tool result with `isError` and the command line's words.
public final class MCPServer: Sendable {
    /// The protocol revisions this server speaks, newest first; a client asking for another is
    /// answered with the newest (the client then decides, as the protocol says).
    public static let protocolVersions = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    private let store: RatesStore
    private let version: String
    private let clock: @Sendable () -> Date

    /// A server answering from `store`; `version` is what `serverInfo` says, `clock` is "now".
    public init(store: RatesStore, version: String, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.version = version
        self.clock = clock
    }

    /// Reads messages with `readLine` until it returns nil (the client closed stdin), writing
    /// each response (one line) with `write`.
    public func serve(readLine: () -> String?, write: (String) -> Void) {
        while let line = readLine() {
            if let response = handle(line) { write(response + "\n") }
        }
    }

    /// The response to one message (nil for a notification or a response).
    public func handle(_ line: String) -> String? {
        guard !line.allSatisfy(\.isWhitespace) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) else {
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
            return Self.error(id: .null, code: -32600, "invalid request: not a JSON-RPC 2.0 message")
        }
        guard let method = message["method"] as? String else { return nil }  // a response to us: none expected
        guard let rawID = message["id"] else { return nil }  // a notification (initialized, cancelled)
        let id = Self.idText(rawID)
        let params = message["params"] as? [String: Any] ?? [:]
        switch method {
        case "initialize":
            let asked = params["protocolVersion"] as? String
            let chosen = asked.flatMap { Self.protocolVersions.contains($0) ? $0 : nil } ?? Self.protocolVersions[0]
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
                    (
                        "instructions",
                        .string(
                            "The European Central Bank's euro reference exchange rates from a local store, exact to the digit. Every answer names the publication day it used; a day without one answers with the previous publication unless fallback says otherwise."
                        )
                    ),
                ]))
        case "ping":
            return Self.result(id: id, .object([]))
        case "tools/list":
            return Self.result(id: id, .object([("tools", .array(MCPTool.all.map(\.listing)))]))
        case "tools/call":
            guard let name = params["name"] as? String, let tool = MCPTool.all.first(where: { $0.name == name }) else {
                return Self.error(id: id, code: -32602, "unknown tool: \(params["name"] ?? "(none)")")
            }
            return Self.result(id: id, call(tool, arguments: params["arguments"] as? [String: Any] ?? [:]))
        default:
            return Self.error(id: id, code: -32601, "method not found: \(method)")
        }
    }

    /// A tool's result: the `/api/` answer, or the failure's words with `isError`.
    func call(_ tool: MCPTool, arguments: [String: Any]) -> JSONText {
        do {
            let request = try HTTPRequest(method: "GET", target: try Self.target(tool.endpoint, arguments))
            let (answer, _) = try NativeAPI(store: store).answer(tool.endpoint, request, now: clock())
            let text = answer.body.hasSuffix("\n") ? String(answer.body.dropLast()) : answer.body
            // structuredContent is an object: a list answer goes in under the tool's name.
            let structured: JSONText = text.hasPrefix("{") ? .raw(text) : .object([(tool.name, .raw(text))])
            return .object([
                ("content", .array([.object([("type", .string("text")), ("text", .string(text))])])),
                ("structuredContent", structured), ("isError", .bool(false)),
            ])
        } catch {
            let text = ServiceError.message(of: error)
            return .object([
                ("content", .array([.object([("type", .string("text")), ("text", .string(text))])])),
                ("isError", .bool(true)),
            ])
        }
    }

    /// The `/api/` request a tool call stands for: each argument a query parameter (a list
    /// joined with commas), each refused if it is not a string, a number or a list of strings.
    static func target(_ endpoint: String, _ arguments: [String: Any]) throws -> String {
        var query: [String] = []
        for (name, value) in arguments.sorted(by: { $0.key < $1.key }) {
            let text: String
            switch value {
            case let string as String: text = string
            case let list as [String]: text = list.joined(separator: ",")
            case let flag as Bool where name == "partial": text = flag ? "true" : "false"
            case let number as NSNumber:
                text = "\(number)"
                // A JSON number reaches us as a double: beyond 15 digits it may not be what was sent.
                if text.filter(\.isNumber).count > 15 || text.contains("e") {
                    throw ServiceError(
                        status: 400,
                        "argument \(name)=\(text) has more digits than a JSON number keeps; send it as a string",
                        code: "bad-parameter")
                }
            default:
                throw ServiceError(
                    status: 400, "argument \(name) is not a string, a number or a list of strings",
                    code: "bad-parameter")
            }
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~:,"))
            query.append("\(name)=\(text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)")
        }
        return "/api/\(endpoint)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    // MARK: JSON-RPC

    private static func idText(_ id: Any) -> JSONText {
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
