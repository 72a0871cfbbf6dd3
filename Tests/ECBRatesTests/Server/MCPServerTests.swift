import ECBRates
import Foundation
import TestSupport
import Testing

@testable import ECBRatesServer

/// `MCPServer` message by message: what a client gets wrong is refused, in the protocol's terms.
struct MCPServerTests {
    static func server() async throws -> (MCPServer, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let store = try RatesStore.forQueries(at: try await PreparedStore.copy(into: directory))
        return (
            MCPServer(store: store, version: "test", clock: { Date(timeIntervalSince1970: 1_790_848_800) }), directory
        )
    }

    @Test func argumentsOfTheWrongKindAreRefusedNotGuessed() async throws {
        let (server, directory) = try await Self.server()
        defer { withExtendedLifetime(directory) {} }
        func call(_ arguments: String) -> String {
            server.handle(
                #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"convert","arguments":\#(arguments)}}"#
            )
                ?? ""
        }
        // true is not an amount (it was converted as 1).
        let flag = call(#"{"amount":true,"from":"USD","to":"JPY"}"#)
        #expect(
            flag.contains(#""isError":true"#)
                && flag.contains(#"argument \"amount\" (true) is invalid: expected a number like 100, 12.50 or -3.10"#),
            "\(flag)")
        let precision = call(#"{"amount":"1","from":"USD","to":"JPY","precision":true}"#)
        #expect(precision.contains(#""isError":true"#), "\(precision)")
        // Arguments that are not an object: invalid params, not "no arguments".
        let text = call(#""USD""#)
        #expect(text.contains(#""error":{"code":-32602"#), "\(text)")
        let fine = call(#"{"amount":"100","from":"USD","to":"JPY","date":"2024-03-28"}"#)
        #expect(fine.contains(#""isError":false"#) && fine.contains(#"\"result\":15119"#), "\(fine)")
    }

    @Test func messagesOutsideTheProtocolGetTheirErrors() async throws {
        let (server, directory) = try await Self.server()
        defer { withExtendedLifetime(directory) {} }
        let modern =
            #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
        // ping belongs to the handshake revisions: not found in 2026-07-28.
        let ping = server.handle(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{\#(modern)}}"#) ?? ""
        #expect(ping.contains(#""id":1,"error":{"code":-32601"#), "\(ping)")
        #expect(server.handle(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#) == #"{"jsonrpc":"2.0","id":2,"result":{}}"#)
        // A request without a method, or of another JSON-RPC version, keeps its id.
        let noMethod = server.handle(#"{"jsonrpc":"2.0","id":15}"#) ?? ""
        #expect(noMethod.contains(#""id":15,"error":{"code":-32600"#), "\(noMethod)")
        let old = server.handle(#"{"jsonrpc":"1.0","id":18,"method":"ping"}"#) ?? ""
        #expect(old.contains(#""id":18,"error":{"code":-32600"#), "\(old)")
        // A revision we do not speak, named with the ones we do.
        let future =
            server.handle(
                #"{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#
            ) ?? ""
        #expect(future.contains(#""code":-32022"#) && future.contains(#""supported":["2026-07-28"]"#), "\(future)")
    }
}

extension MCPServerTests {
    /// Issue 43: `ecbrates help mcp` and `man ecbrates-mcp` name exactly the tools `tools/list`
    /// gives (they named 6 of 8), in its order.
    @Test func helpAndTheManualPageNameEveryToolOfToolsList() async throws {
        let (server, directory) = try await Self.server()
        defer { withExtendedLifetime(directory) {} }
        let listed = server.handle(#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#) ?? ""
        let names = listed.matches(of: /"name":"([a-z]+)","title"/).map { String($0.1) }
        #expect(names.count >= 8, "\(listed.prefix(300))")
        let sentence = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        let help = try CommandRun.process(["help", "mcp"])
        #expect(help.out.contains("calls its tools, one per question:\n  \(sentence).\n"), "\(help.out)")
        let page = try CommandRun.process(["man", "mcp"])
        #expect(
            page.out.replacingOccurrences(of: "\n", with: " ").contains(sentence.replacingOccurrences(of: "-", with: "\\-")),
            "\(page.out)")
    }
}
