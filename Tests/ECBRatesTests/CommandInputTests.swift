import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

@testable import ECBRatesCLI

/// Each command declares every input once, and reads every input it declares: a declared
/// option that the command never reads would be accepted and silently ignored.
@Suite struct CommandInputTests {
    /// Command lines that, together, give each command every input it declares. `{store}` is a
    /// copy of the full history, `{dir}` the test's directory, `{fixtures}` the Fixtures folder, `{now}` this moment (an --as-of after the store's import).
    static let lines: [String: [String]] = [
        "import": [
            "import {fixtures}/eurofxref-daily.xml --workers 1 --chunk-days 5 --method batch --from 2026-01-01 --to 2026-12-31 "
                + "--currencies USD --dry-run --wait 0 --connect-timeout 5 --idle-timeout 5 --format json --quiet --store {dir}/new.sqlite"
        ],
        "validate": ["validate {fixtures}/eurofxref-daily.xml --format json --quiet"],
        "rate": [
            "rate USD --date 2024-03-28 --base GBP --fallback next --format json --as-of {now} --store {store}"
        ],
        "convert": [
            "convert 100 USD JPY --date 2024-03-28 --precision 2 --fallback next --format json --as-of {now} --store {store}"
        ],
        "latest": ["latest --currencies USD --date 2024-03-28 --base GBP --format csv --store {store}"],
        "stats": [
            "stats USD --from 2024-01-01 --to 2024-02-01 --base GBP --partial --format json --as-of {now} --store {store}"
        ],
        "series": [
            "series USD --from 2024-01-01 --to 2024-02-01 --base GBP --group month --statistic max --format json "
                + "--output {dir}/series.json --partial --as-of {now} --store {store}"
        ],
        "currencies": ["currencies --format json --store {store}"],
        "export": [
            "export --from 2024-01-01 --to 2024-02-01 --currencies USD --base GBP --layout long --format ndjson "
                + "--output {dir}/export.ndjson --partial --quiet --as-of {now} --store {store}"
        ],
        "corrections": ["corrections --currency USD --since 2020-01-01 --format json --store {store}"],
        "status": ["status --max-age-days 3 --quiet --format json --store {store}"],
        // The three long-running commands read their inputs before they open the store, which
        // is missing here: they stop at once.
        "shell": ["shell --store {dir}/missing/rates.sqlite"],
        "watch": ["watch USD --since 2024-01-01 --format ndjson --store {dir}/missing.sqlite"],
        "serve": [
            "serve --listen 127.0.0.1:0 --threads 2 --cors * --max-age-days 3 --refresh off --store {dir}/missing.sqlite"
        ],
        "mcp": ["mcp --store {dir}/missing.sqlite"],
        "man": ["man rate"],
        "completions": ["completions bash"],
    ]

    @Test func everyCommandHasLines() {
        #expect(Set(Self.lines.keys) == Set(CLI.commands.map(\.name)))
    }

    /// The names of the declared inputs that the runs of `lines` left unread.
    static func unread(_ lines: [String]) async throws -> [String] {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        // {now}, to the second, must come after the store's import ended.
        try await Task.sleep(for: .seconds(1.1))
        var declared: [String] = []
        var read: Set<String> = []
        for line in lines {
            let words = line.split(separator: " ").map {
                $0.replacingOccurrences(of: "{store}", with: store.path).replacingOccurrences(
                    of: "{dir}", with: directory.url.path
                )
                .replacingOccurrences(of: "{fixtures}", with: FixturePaths.fixtures.path)
                .replacingOccurrences(of: "{now}", with: Date().formatted(.iso8601))
            }
            guard case .run(let parsed) = try Invocation(words) else {
                Issue.record("\(line) did not parse to a command")
                continue
            }
            #expect(parsed.failure == nil, "\(line): \(String(describing: parsed.failure))")
            let context = CommandContext(environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z"], console: .capturing())
            _ = try? await CLI.run(.run(parsed), context: context)
            declared = parsed.spec.declarations.map(\.name)
            read.formUnion(parsed.spec.declarations.filter { $0.wasRead() }.map(\.name))
        }
        return declared.filter { !read.contains($0) }
    }

    @Test(arguments: CLI.commands.map(\.name))
    func everyDeclaredInputIsRead(_ command: String) async throws {
        let unread = try await Self.unread(Self.lines[command] ?? [])
        #expect(unread.isEmpty, "ecbrates \(command) declares \(unread) and never reads them")
    }

    /// A command that forgets an input it declares.
    struct Forgetful: ParsableCommand {
        static let configuration = CommandConfiguration(name: "forgetful", abstract: "Forgets --date.")
        @Option(.day("--date", help: "A day.")) var date: CalendarDay?
        @Option(.text("--base", value: "code", help: "A currency."), default: "EUR") var base: String

        func run(_ context: CommandContext) async throws -> Int32 {
            context.console.out(base)
            return 0
        }
    }

    @Test func anUnreadInputIsFound() async throws {
        let (command, declarations) = DeclarationCollector.make(Forgetful.self)
        let spec = CommandSpec(configuration: Forgetful.configuration, declarations: declarations)
        let outcome = try ArgumentParser(spec: spec).parse(["--date", "2024-03-28", "--base", "usd"])
        #expect(outcome.failure == nil)
        _ = try await command.run(CommandContext(environment: [:], console: .capturing()))
        #expect(declarations.filter { !$0.wasRead() }.map(\.name) == ["--date"])
    }

    @Test func inputsAreDeclaredInHelpOrder() {
        let spec = CLI.commands.first { $0.name == "rate" }!.makeSpec()
        #expect(
            spec.declarations.map(\.name) == [
                "currencies", "--date", "--base", "--fallback", "--as-of", "--format", "--store",
            ])
        #expect(
            spec.usage
                == "ecbrates rate [<currencies>] [--date <day>] [--base <currency>] [--fallback <rule>] [--as-of <time>] "
                + "[--format <format>] [--store <path>]")
    }

    @Test func aBadValueIsReportedWithTheCommandsFormat() async {
        let console = Console.capturing()
        let status = await CLI.main(
            ["rate", "USD", "--date", "2024-02-30", "--format", "json"], environment: [:], console: console)
        #expect(status == 64)
        #expect(
            console.capturedOutput.err
                == #"{"error":"The value '2024-02-30' is invalid for '--date <day>': expected a day that exists: February 2024 has 29 days (01 to 29)","code":"bad-parameter","exitStatus":64}"#
                + "\n")
    }
}
