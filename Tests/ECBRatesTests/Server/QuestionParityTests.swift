import ECBRates
import ECBRatesServer
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// Issue 34: one question, asked through every door, gives one answer. Seeded random questions
/// (good and bad: unknown and ended currencies, weekends, days outside the store, a stale store,
/// as-of moments, ranges the store lacks days of, huge precisions and amounts) are asked of the
/// command line (a real process, `--format json`), of `/api/` (the service, in process) and of
/// MCP (`tools/call`, in process). The three JSON answers are equal, warnings included; a
/// failure has the same code through every door and the one HTTP status of its code; and every
/// rate an answer says the ECB published is the one in the ECB's file (read by a regex, not by
/// the reader under test).
@Suite(.serialized) struct QuestionParityTests {
    /// A store through 2026-09-30, imported as the suite runs, asked an hour from now: stale
    /// (by 40 business days and more), with a moment after its import to ask as of.
    static let now = Date().addingTimeInterval(3600).formatted(.iso8601)
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2026_11_27
    static let count = 520

    /// One question: its name and its fields' values as text (a flag's value is "true").
    struct Asked: CustomStringConvertible {
        let name: String
        let fields: [(name: String, text: String)]
        var description: String { name + " " + fields.map { "\($0.name)=\($0.text)" }.joined(separator: " ") }
    }

    static let currencyPool = [
        "USD", "GBP", "JPY", "CHF", "usd", "TRL", "TRY", "HRK", "DEM", "EUR", "XYZ", "BGN", "ISK", "RUB", "US",
        "USD,GBP",
        "JPY,CHF,GBP", "USD,USD",
    ]

    static func day(_ generator: inout SeededGenerator) -> String {
        if Int.random(in: 0..<30, using: &generator) == 0 {
            return ["2024-02-30", "yesterday", "2024-3-1"].randomElement(using: &generator)!
        }
        let start = CalendarDay("1998-12-01")!, end = CalendarDay("2026-11-20")!
        let span = end.daysSince1970 - start.daysSince1970
        // Near the store's end half of the time: stale days, the newest, weekends around it.
        let offset =
            Bool.random(using: &generator)
            ? span - Int.random(in: 0..<120, using: &generator) : Int.random(in: 0...span, using: &generator)
        return "\(start.adding(days: offset))"
    }

    static func value(of field: QuestionField, afterImport: String, _ generator: inout SeededGenerator) -> String {
        switch field.kind {
        case .currency:
            return ["USD", "GBP", "JPY", "CHF", "usd", "TRL", "HRK", "DEM", "EUR", "XYZ", "ISK", "U1D"].randomElement(
                using: &generator)!
        case .currencies: return currencyPool.randomElement(using: &generator)!
        case .day: return day(&generator)
        case .moment:
            return ["2026-10-01", "2099-12-31", "2020-01-01", afterImport, afterImport, "soon"].randomElement(
                using: &generator)!
        case .amount:
            return [
                "100", "12.50", "-3.10", "0", "1234.56", "99999999999999999999999999999999999", "1e5", "0.0001",
                "1234567.891",
            ].randomElement(using: &generator)!
        case .count(_, let maximum): return "\(Int.random(in: 0...(maximum + 3), using: &generator))"
        case .choice(let words): return (words + ["bogus"]).randomElement(using: &generator)!
        case .flag: return "true"
        }
    }

    /// The questions of the seed; `afterImport` is a moment (by the real clock) after the store's import.
    static func questions(afterImport: String) -> [Asked] {
        var generator = SeededGenerator(seed: seed)
        let names = [
            "rate", "rate", "rate", "convert", "convert", "latest", "series", "stats", "currencies",
            "corrections", "status",
        ]
        // Every seed asks some good questions as of a moment after the import (the random ones
        // may happen to have few: each as-of answer needs an in-memory snapshot, so they are rare).
        let asOf = [
            Asked(name: "rate", fields: [("currencies", "USD"), ("date", "2024-03-28"), ("as_of", afterImport)]),
            Asked(name: "rate", fields: [("currencies", "GBP"), ("as_of", afterImport)]),
            Asked(
                name: "convert",
                fields: [
                    ("amount", "100"), ("from", "USD"), ("to", "JPY"), ("date", "2024-03-29"), ("as_of", afterImport),
                ]),
            Asked(name: "latest", fields: [("currencies", "USD,CHF"), ("as_of", afterImport)]),
            Asked(name: "stats", fields: [("currency", "CHF"), ("from", "2025-06-01"), ("as_of", afterImport)]),
        ]
        return asOf
            + (0..<(count - asOf.count)).map { _ in
                let name = names.randomElement(using: &generator)!
                let question = Questions.named(name)!
                var fields: [(String, String)] = []
                for field in question.fields {
                    let given =
                        field.isRequired
                        ? Int.random(in: 0..<25, using: &generator) > 0 : Bool.random(using: &generator)
                    if given && (field.name != "as_of" || Int.random(in: 0..<6, using: &generator) == 0) {
                        fields.append((field.name, value(of: field, afterImport: afterImport, &generator)))
                    }
                }
                // A range of a year at most, mostly (the default of a series), to keep the run short.
                if name == "stats" && !fields.contains(where: { $0.0 == "from" }) && Bool.random(using: &generator) {
                    fields.append(("from", "2025-06-01"))
                }
                return Asked(name: name, fields: fields)
            }
    }

    /// The ECB's rate of each currency on each day, from its file.
    static let published: [String: Decimal] = {
        var rates: [String: Decimal] = [:]
        for line in (try? fileRates(FixturePaths.history)) ?? [] {
            let parts = line.split(separator: " ")
            rates["\(parts[0]) \(parts[1])"] = Decimal(string: String(parts[2]))
        }
        return rates
    }()

    @Test func everyDoorGivesTheSameAnswerToEachOfFiveHundredSeededQuestions() async throws {
        // The store named as `--store` names it, as `serve` and `mcp` are told.
        let directory = TemporaryDirectory()
        let storePath = try await PreparedStore.copy(into: directory).path
        let location = StoreLocation.resolve(option: storePath, environment: [:])
        let harness = try await ServiceHarness(
            now: Self.now, store: storePath, settings: RateService.Settings(storeLocation: location))
        let mcp = MCPServer(
            store: harness.store, storeLocation: location, version: "test",
            clock: { try! Date(Self.now, strategy: .iso8601) })
        // A moment after the import, already past by the real clock (the import log's); written
        // to the whole second, which may take up to a second off it: 2 s after the import ended.
        try await Task.sleep(for: .seconds(2.1))
        let afterImport = Date().addingTimeInterval(-0.5).formatted(.iso8601)
        let questions = Self.questions(afterImport: afterImport)
        var failures: [String] = []
        var (answered, refused, checkedRates, asOf) = (0, 0, 0, 0)
        var asOfSample: [String] = []
        for (index, asked) in questions.enumerated() {
            let question = Questions.named(asked.name)!
            // The command line.
            var arguments = [asked.name]
            for (name, text) in asked.fields {
                let field = question.fields.first { $0.name == name }!
                if field.placement == .argument {
                    arguments.append(text)
                } else if field.kind == .flag {
                    arguments.append(field.optionName)
                } else {
                    arguments += [field.optionName, text]
                }
            }
            // Positional words in their declared order (a missing required one is left out).
            let cli = try CommandRun.process(
                arguments + ["--format", "json", "--store", storePath], environment: ["ECBRATES_NOW": Self.now])
            // The API.
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~:,"))
            let query = asked.fields.map {
                "\($0.name)=\($0.text.addingPercentEncoding(withAllowedCharacters: allowed)!)"
            }
            let api = try harness.request(
                "/api/\(asked.name)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
            let apiText = ServiceHarness.text(api)
            // MCP (the modern revision: structuredContent is the answer itself).
            var members: [String: Any] = [:]
            for (name, text) in asked.fields {
                let field = question.fields.first { $0.name == name }!
                if field.kind == .flag {
                    members[name] = true
                } else if field.kind == .currencies && index % 2 == 0 {
                    members[name] = text.split(separator: ",").map(String.init)
                } else {
                    members[name] = text
                }
            }
            let call: [String: Any] = [
                "jsonrpc": "2.0", "id": index, "method": "tools/call",
                "params": [
                    "name": asked.name, "arguments": members,
                    "_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"],
                ],
            ]
            let line = String(decoding: try JSONSerialization.data(withJSONObject: call), as: UTF8.self)
            let response = try #require(mcp.handle(line))
            let result = try #require(
                (try JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any])?["result"]
                    as? [String: Any], "\(response)")
            let structured = try JSONSerialization.data(
                withJSONObject: result["structuredContent"] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
            let isError = result["isError"] as? Bool ?? false

            let label =
                "#\(index) (seed \(Self.seed), now \(Self.now)) \(asked): ecbrates \(arguments.joined(separator: " "))"
            if cli.status == 0 {
                answered += 1
                let expected = try Self.canonical(cli.out)
                let same = api.status == 200 && apiText == cli.out && !isError && structured == expected
                if !same {
                    failures.append("\(label)\n  cli: \(cli.out)  api \(api.status): \(apiText)  mcp: \(response)")
                    continue
                }
                checkedRates += try Self.checkPublished(cli.out, label: label, failures: &failures)
                if cli.out.hasPrefix(#"{"asOf":"#) { asOf += 1 }
            } else {
                refused += 1
                if asked.fields.contains(where: { $0.name == "as_of" && $0.text == afterImport })
                    && asOfSample.count < 3
                {
                    asOfSample.append("\(asked): \(cli.err)")
                }
                let cliCode =
                    (try? JSONSerialization.jsonObject(with: Data(cli.err.utf8)) as? [String: Any])?["code"]
                    as? String
                let apiJSON =
                    try? JSONSerialization.jsonObject(with: api.body.isEmpty ? Data("{}".utf8) : Data(api.body))
                    as? [String: Any]
                let mcpJSON = try? JSONSerialization.jsonObject(with: structured) as? [String: Any]
                let apiCode = apiJSON?["code"] as? String
                let statuses = (apiJSON?["status"] as? Int, mcpJSON?["status"] as? Int)
                let same =
                    cliCode != nil && cliCode == apiCode && apiCode == mcpJSON?["code"] as? String && isError
                    && statuses.0 == api.status && statuses.1 == api.status
                if !same {
                    failures.append(
                        "\(label)\n  cli \(cli.status): \(cli.err)  api \(api.status): \(apiText)  mcp: \(response)")
                }
            }
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(Self.count) questions differ:\n\(failures.prefix(8).joined(separator: "\n"))")
        #expect(answered >= 150 && refused >= 100, "answered \(answered), refused \(refused): the mix is off")
        #expect(checkedRates >= 300, "only \(checkedRates) published rates checked against the ECB's file")
        #expect(asOf >= 5, "only \(asOf) answers as of a moment: \(asOfSample)")
    }

    /// `text` parsed and written with sorted keys, to compare with another JSON value.
    static func canonical(_ text: String) throws -> Data {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    /// Every `{"day","perEuro"}` an answer cites as published equals the ECB's file; the count.
    static func checkPublished(_ text: String, label: String, failures: inout [String]) throws -> Int {
        var checked = 0
        for match in text.matches(
            of: /"currency":"([A-Z]{3})","perEuro":[-0-9.]+,"day":"[0-9-]+","published":\[([^\]]*)\]/)
        {
            for cited in match.2.matches(of: /\{"day":"([0-9-]{10})","perEuro":([0-9.]+)\}/) {
                let key = "\(cited.1) \(match.1)"
                checked += 1
                if published[key] != Decimal(string: String(cited.2)) {
                    failures.append(
                        "\(label): cites \(key) \(cited.2), the ECB's file says \(String(describing: published[key]))")
                }
            }
        }
        return checked
    }
}
