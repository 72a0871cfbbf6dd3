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

extension MCPServerTests {
    /// Issue 44: answers a model can use. A number no double holds is that argument's error,
    /// answered with the call's own id; a number is read by one rule, as a JSON number or a
    /// string; a long bad value is quoted by its first 64 characters and its length; a day that
    /// does not exist is named as such; a large series says how to ask for less.
    @Test func answersAModelCanUse() async throws {
        let (server, directory) = try await Self.server()
        defer { withExtendedLifetime(directory) {} }
        func call(_ id: String, _ tool: String, _ arguments: String) -> String {
            server.handle(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
            ) ?? ""
        }
        let huge = call("12345678901234567890123", "convert", #"{"amount":1e400,"from":"USD","to":"JPY"}"#)
        #expect(huge.hasPrefix(#"{"jsonrpc":"2.0","id":12345678901234567890123,"result":"#), "\(huge)")
        #expect(huge.contains(#"argument \"amount\" (1e400) is invalid: expected a number like 100, 12.50 or -3.10"#))
        // One rule: 1e3 as a number and as a string alike; 0.1 exactly, not the double nearest it.
        let number = call("1", "convert", #"{"amount":1e3,"from":"USD","to":"JPY","date":"2024-03-28"}"#)
        let string = call("1", "convert", #"{"amount":"1e3","from":"USD","to":"JPY","date":"2024-03-28"}"#)
        #expect(number == string && number.contains(#""isError":true"#), "\(number)\n\(string)")
        let tenth = call("2", "convert", #"{"amount":0.1,"from":"EUR","to":"USD","date":"2024-03-28"}"#)
        #expect(tenth.contains(#"\"amount\":0.1,"#) && tenth.contains(#"\"result\":0.11,"#), "\(tenth)")
        let long = String(repeating: "U", count: 10_000)
        let quoted = call("3", "rate", #"{"currencies":"\#(long)"}"#)
        #expect(
            quoted.contains(#"argument \"currencies\" (\#(String(repeating: "U", count: 64))… (10000 characters)) is invalid"#),
            "\(quoted.prefix(400))")
        #expect(quoted.utf8.count < 1_000, "the error repeats the value: \(quoted.utf8.count) bytes")
        let day = call("4", "rate", #"{"currencies":"USD","date":"2024-02-30"}"#)
        #expect(
            day.contains(#"argument \"date\" (2024-02-30) is invalid: expected a day that exists: February 2024 has 29 days (01 to 29)"#),
            "\(day)")
        let month = call("5", "rate", #"{"currencies":"USD","date":"2024-13-01"}"#)
        #expect(month.contains("a month is 01 to 12, not 13"), "\(month)")
        let large = call("6", "series", #"{"currencies":"USD","from":"1999-01-04","to":"2026-09-30"}"#)
        #expect(
            large.contains(
                #"{\"code\":\"large-answer\",\"message\":\"the answer holds 7104 rates (7104 days × 1 currency); grouped by week, month or year, or over a shorter range, it is smaller\"}"#
            ), "\(large.suffix(400))")
        let grouped = call("7", "series", #"{"currencies":"USD","from":"1999-01-04","to":"2026-09-30","group":"month"}"#)
        #expect(!grouped.contains("large-answer"))
        // An id that is not a string, a number or null: an invalid request, answered with null.
        let badID = server.handle(#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#) ?? ""
        #expect(badID == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: an id is a string, a number or null"}}"#)
    }

    /// Seeded: 250 malformed and hostile lines to `ecbrates mcp` (mcp_fuzz_check.py, Python's
    /// json the oracle): each answered with its own id, or not at all where the line is a
    /// notification, and the process lives on.
    @Test func everyMalformedLineOfASeededFuzzGetsItsAnswer() async throws {
        let (_, directory) = try await Self.server()
        let store = directory.file("rates.sqlite")
        let seed = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(Int.init) ?? Int.random(in: 1...999_999)
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [
                PythonTools.serverScript("mcp_fuzz_check.py"), CommandRun.executable.path, store.path, "\(seed)", "250",
            ], timeout: 300)
        #expect(run.status == 0, "rebuild with ECBRATES_SEED=\(seed): \(run.out.suffix(3_000)) \(run.err.suffix(1_000))")
        #expect(run.out.hasPrefix("ok "), "\(run.out.suffix(500))")
    }
}
