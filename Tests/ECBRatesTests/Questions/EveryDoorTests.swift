import ECBRates
import ECBRatesCLI
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

@testable import ECBRatesServer

/// A question declared here, in the test target alone, and nowhere else: an echo of its fields.
/// Added to the questions (``Questions/adding(_:_:)``), it must appear, documented and
/// answering, at every door: the command line's help, run, manual page and completions,
/// `/api/`, the OpenAPI document, and MCP's `tools/list` and `tools/call`. Without it, at none.
struct EchoQuestion: Question {
    static let name = "echo"
    static let title = "Echo the fields"
    static let summary = "Answers with the values it was given, for a test of the doors."
    static let abstract = "Echo the values of the fields, as every door reads them."
    static var answerSchema: JSONText {
        .raw(
            #"{"type":"object","properties":{"words":{"type":"array","items":{"type":"string"}},"#
                + #""day":{"type":["string","null"]},"times":{"type":"integer"},"loud":{"type":"boolean"}},"#
                + #""required":["words","day","times","loud"],"additionalProperties":false}"#)
    }

    @Field(
        QuestionField(
            name: "words", kind: .currencies, help: "Currency codes to echo.", isRequired: true, placement: .argument))
    var words: [CurrencyCode] = []
    @Field(QuestionField(name: "day", kind: .day, help: "A day to echo.")) var day: CalendarDay?
    @Field(QuestionField(name: "times", kind: .count(minimum: 1, maximum: 3), help: "How many times (1 to 3)."))
    var times = 1
    @Field(QuestionField(name: "loud", kind: .flag, help: "Echo louder.")) var loud = false

    init() {}

    func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<Echo> {
        Answered(Echo(words: words.map(\.text), day: day, times: times, loud: loud))
    }

    /// The answer: the values given.
    struct Echo: RenderableAnswer {
        let words: [String]
        let day: CalendarDay?
        let times: Int
        let loud: Bool

        var text: String {
            let said = Array(repeating: words.joined(separator: " "), count: times).joined(separator: " ")
            return (loud ? said.uppercased() + "!" : said) + (day.map { " on \($0)" } ?? "") + "\n"
        }
        var json: JSONText {
            .object([
                ("words", .array(words.map { .string($0) })), ("day", day.map { .string("\($0)") } ?? .null),
                ("times", .decimal(Decimal(times))), ("loud", .bool(loud)),
            ])
        }
        var csvRows: [[String]] {
            [
                ["words", "day", "times", "loud"],
                [words.joined(separator: ","), day.map { "\($0)" } ?? "", "\(times)", "\(loud)"],
            ]
        }
    }
}

@Suite(.serialized) struct EveryDoorTests {
    /// What each door shows of `echo`, with or without it added.
    struct Seen {
        var help = "", commandHelp = "", run = "", runStatus: Int32 = -1, manPage = "", bash = "", zsh = "", fish = ""
        var api = 0, apiBody = "", apiBad = 0, apiBadBody = "", openAPI = "", toolsList = "", toolsCall = ""
    }

    static func look(store: URL, harness: ServiceHarness) async -> Seen {
        var seen = Seen()
        func cli(_ arguments: [String]) async -> (Int32, String) {
            let console = Console.capturing()
            let status = await CLI.main(arguments, environment: ["ECBRATES_STORE": store.path], console: console)
            return (status, console.capturedOutput.out + console.capturedOutput.err)
        }
        seen.help = await cli(["help"]).1
        seen.commandHelp = await cli(["help", "echo"]).1
        (seen.runStatus, seen.run) = await cli(["echo", "usd,JPY", "--day", "2024-03-28", "--times", "2", "--loud"])
        seen.manPage = await cli(["man", "echo"]).1
        seen.bash = await cli(["completions", "bash"]).1
        seen.zsh = await cli(["completions", "zsh"]).1
        seen.fish = await cli(["completions", "fish"]).1
        if let answer = try? harness.request("/api/echo?words=USD,JPY&times=3") {
            (seen.api, seen.apiBody) = (answer.status, ServiceHarness.text(answer))
        }
        if let answer = try? harness.request("/api/echo?words=USD&times=9") {
            (seen.apiBad, seen.apiBadBody) = (answer.status, ServiceHarness.text(answer))
        }
        seen.openAPI = (try? harness.request("/api/openapi.json")).map(ServiceHarness.text) ?? ""
        let mcp = MCPServer(store: harness.store, version: "test", clock: { Date() })
        seen.toolsList = mcp.handle(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#) ?? ""
        seen.toolsCall =
            mcp.handle(
                #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"words":["GBP"],"times":2}}}"#
            ) ?? ""
        return seen
    }

    @Test func aQuestionDeclaredOnlyHereAppearsAtEveryDoorAndOnlyWhenAdded() async throws {
        let harness = try await ServiceHarness()
        let store = harness.store.url
        let with = await Questions.adding([EchoQuestion.self]) { await Self.look(store: store, harness: harness) }
        // A service of its own: the first one's answer cache keeps what it answered.
        let without = await Self.look(store: store, harness: try await ServiceHarness())

        // The command line: listed with its abstract, its help made of its fields, and run.
        #expect(
            with.help.contains("  echo                    Echo the values of the fields, as every door reads them."))
        #expect(
            with.commandHelp.contains(
                "USAGE: ecbrates echo <words> [--day <day>] [--times <n>] [--loud] [--format <format>] [--store <path>]"
            ),
            "\(with.commandHelp)")
        #expect(with.commandHelp.contains("--times <n>             How many times (1 to 3)."))
        #expect(with.runStatus == 0 && with.run == "USD JPY USD JPY! on 2024-03-28\n", "\(with.run)")
        #expect(
            with.manPage.contains(".TH ECBRATES-ECHO") && with.manPage.contains("How many times (1 to 3)."),
            "\(with.manPage.prefix(300))")
        #expect(with.bash.contains("echo") && with.bash.contains("--times"))
        #expect(
            with.zsh.contains("echo:Echo the values of the fields") || with.zsh.contains("'echo:"),
            "\(with.zsh.prefix(400))")
        #expect(with.fish.contains("-a echo") || with.fish.contains("echo\t") || with.fish.contains("'echo'"))
        // /api/: 200 with the values, 400 naming the bad one.
        #expect(
            with.api == 200 && with.apiBody.contains(#""words":["USD","JPY"]"#) && with.apiBody.contains(#""times":3"#),
            "\(with.api) \(with.apiBody)")
        #expect(
            with.apiBad == 400 && with.apiBadBody.contains("times=9") && with.apiBadBody.contains("from 1 to 3"),
            "\(with.apiBad) \(with.apiBadBody)")
        // The OpenAPI document names the path and its parameters.
        #expect(with.openAPI.contains(#""/api/echo""#) && with.openAPI.contains(#""name":"times""#))
        // MCP: the tool with both schemas, and its call answered as structured content.
        #expect(with.toolsList.contains(#""name":"echo""#) && with.toolsList.contains("How many times (1 to 3)."))
        #expect(
            with.toolsCall.contains(#""isError":false"#) && with.toolsCall.contains(#"\"words\":[\"GBP\"]"#),
            "\(with.toolsCall)")

        // Without it: nowhere.
        #expect(!without.help.contains("echo"))
        #expect(without.commandHelp.contains("Unknown command 'echo'"), "\(without.commandHelp)")
        #expect(without.runStatus == 64)
        #expect(!without.manPage.contains(".TH ECBRATES-ECHO"))
        #expect(
            !without.bash.contains("--times") && !without.zsh.contains("Echo the values")
                && !without.fish.contains("Echo the values"))
        #expect(without.api == 404, "\(without.api) \(without.apiBody)")
        #expect(!without.openAPI.contains("/api/echo") && !without.toolsList.contains(#""name":"echo""#))
        #expect(without.toolsCall.contains("echo") && !without.toolsCall.contains(#""isError":false"#))
    }

    /// The document with `echo` in it is a valid OpenAPI 3.1 document (openapi-spec-validator).
    @Test func theDocumentWithTheAddedQuestionIsValid() async throws {
        if let missing = PythonTools.missingPackages {
            try Test.cancel("the Python packages are missing: \(missing)")
        }
        let harness = try await ServiceHarness()
        let document = try Questions.adding([EchoQuestion.self]) {
            ServiceHarness.text(try harness.request("/api/openapi.json"))
        }
        let directory = TemporaryDirectory()
        let spec = directory.file("openapi.json")
        try Data(document.utf8).write(to: spec)
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                "-c",
                "import json,sys; from openapi_spec_validator import validate; d=json.load(open(sys.argv[1])); validate(d); print(sorted(p for p in d['paths'] if p.startswith('/api/e')))",
                spec.path,
            ], timeout: 120)
        #expect(run.status == 0 && run.out.contains("'/api/echo'"), "\(run.out)\n\(run.err)")
    }
}
