import ECBRates
import ECBRatesServer
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// Issue 37: validators name the answer's bytes, not the store's history, so that a cache in
/// front of several replicas (or of one that re-imports) revalidates with 304s.
@Suite(.serialized) struct ContentETagTests {
    static let now = "2026-10-01T12:00:00Z"

    /// Seeded requests across the APIs: single days (weekends, holidays), ranges, bases, amounts.
    static func requests(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let codes = ["USD", "GBP", "JPY", "CHF", "SEK", "PLN", "TRY"]
        return (0..<count).map { _ in
            let day = CalendarDay("1999-01-04")!.adding(days: Int.random(in: 0..<10_130, using: &generator))
            let code = codes.randomElement(using: &generator)!
            let base = codes.randomElement(using: &generator)!
            switch Int.random(in: 0..<7, using: &generator) {
            case 0: return "/\(day)?symbols=\(code)"
            case 1: return "/\(day)?base=\(base)&amount=\(Int.random(in: 1...5000, using: &generator))"
            case 2: return "/v2/rates?date=\(day)&quotes=\(code)"
            case 3: return "/api/rate?currencies=\(code)&date=\(day)&base=\(base)"
            case 4: return "/api/series?currencies=\(code)&from=\(day.adding(days: -40))&to=\(day)&group=week"
            case 5: return "/\(day.adding(days: -20))..\(day)?symbols=\(code)"
            default: return "/api/convert?amount=1234.56&from=\(base)&to=\(code)&date=\(day)"
            }
        }
    }

    /// The ETag and status of each request.
    static func tags(_ harness: ServiceHarness, _ targets: [String]) throws -> [String: String] {
        var tags: [String: String] = [:]
        for target in targets {
            let response = try harness.request(target)
            tags[target] = "\(response.status) \(response.header("ETag") ?? "none") \(response.body.count)"
        }
        return tags
    }

    @Test func twoReplicasOfTheSameFilesGiveTheSameETagsAndANoOpImportKeepsThem() async throws {
        // Two stores imported independently (their history transactions differ).
        let first = TemporaryDirectory(), second = TemporaryDirectory()
        let stores = [first.file("rates.sqlite"), second.file("rates.sqlite")]
        try WatchTests.importing(FixturePaths.history, store: stores[0])
        try WatchTests.importing(FixturePaths.history, store: stores[1], ["--to", "2026-06-30"])
        try WatchTests.importing(FixturePaths.ninetyDays, store: stores[1])
        let replicas = try await [
            ServiceHarness(now: Self.now, store: stores[0].path), ServiceHarness(now: Self.now, store: stores[1].path),
        ]
        let targets = Self.requests(count: 240, seed: 2026_11_28)
        let before = try Self.tags(replicas[0], targets)
        let other = try Self.tags(replicas[1], targets)
        let differ = targets.filter { before[$0] != other[$0] }
        #expect(
            differ.isEmpty,
            "\(differ.count) of \(targets.count) differ, like \(differ.prefix(3).map { "\($0): \(before[$0]!) / \(other[$0]!)" })"
        )
        #expect(targets.filter { before[$0]!.hasPrefix("200 \"") }.count >= 200, "too few answers with a validator")

        // An import that changes nothing: every ETag kept, and a revalidation is a 304.
        let noOp = try CommandRun.process(["import", FixturePaths.daily.path, "--store", stores[0].path])
        #expect(noOp.status == 0 && noOp.out.contains("0 new, 0 corrected"), "\(noOp)")
        let after = try Self.tags(replicas[0], targets)
        #expect(targets.filter { before[$0] != after[$0] }.isEmpty)
        let target = "/api/rate?currencies=USD&date=2024-03-28"
        let tag = try #require(try replicas[0].request(target).header("ETag"))
        #expect(try replicas[1].request(target, headers: ["If-None-Match": tag]).status == 304)
        #expect(try replicas[0].request(target, headers: ["If-None-Match": "W/" + tag]).status == 304)
    }

    @Test func aCorrectionChangesTheETagsOfExactlyTheAnswersThatIncludeIt() async throws {
        let directory = TemporaryDirectory()
        let store = directory.file("rates.sqlite")
        try WatchTests.importing(FixturePaths.history, store: store)
        let harness = try await ServiceHarness(now: Self.now, store: store.path)
        // USD of 2026-08-28 (a Friday) becomes 1.1650.
        let including = [
            "/2026-08-28?symbols=USD", "/2026-08-29?symbols=USD", "/2026-08-28", "/v2/rates?date=2026-08-28",
            "/api/rate?currencies=USD&date=2026-08-30", "/api/series?currencies=USD&from=2026-08-01&to=2026-09-30",
            "/2026-08-01..2026-09-30?symbols=USD", "/api/stats?currency=USD&from=2026-08-01&to=2026-08-31",
        ]
        let excluding = [
            "/2026-08-27?symbols=USD", "/2026-08-31?symbols=USD", "/2026-08-28?symbols=GBP", "/latest?symbols=USD",
            "/api/rate?currencies=JPY&date=2026-08-28", "/api/series?currencies=GBP&from=2026-08-01&to=2026-09-30",
            "/api/stats?currency=USD&from=2026-09-01&to=2026-09-30", "/api/currencies",
            "/2026-08-28?base=GBP&symbols=JPY",  // a cross rate of that day without USD
        ]
        let singles = Self.requests(count: 200, seed: 7).filter { !$0.contains("2026-08-") && !$0.contains("2026-09-") }
        let before = try Self.tags(harness, including + excluding + singles)
        try WatchTests.importing(try WatchTests.correctedNinetyDays(in: directory), store: store)
        let after = try Self.tags(harness, including + excluding + singles)
        for target in including {
            #expect(before[target] != after[target], "\(target) includes the correction: \(before[target]!)")
        }
        for target in excluding + singles {
            #expect(
                before[target] == after[target], "\(target) does not include it: \(before[target]!) → \(after[target]!)"
            )
        }
    }

    @Test func cacheControlLastModifiedAndGzipAreAsDocumented() async throws {
        let harness = try await ServiceHarness(now: Self.now)
        let past = try harness.request("/2024-03-28")
        #expect(
            past.header("Cache-Control")
                == "public, max-age=86400, stale-while-revalidate=604800, stale-if-error=2592000")
        // The ECB published 2026-09-30 at 16:00 Frankfurt time (14:00 UTC).
        #expect(past.header("Last-Modified") == "Wed, 30 Sep 2026 14:00:00 GMT")
        let current = try harness.request("/latest")
        // Until the next publication, 2026-10-01 at 14:00 UTC: two hours.
        #expect(
            current.header("Cache-Control") == "public, max-age=7200, stale-while-revalidate=300, stale-if-error=86400")
        let since = try harness.request("/2024-03-28", headers: ["If-Modified-Since": "Wed, 30 Sep 2026 14:00:00 GMT"])
        #expect(since.status == 304)
        let plain = try #require(past.header("ETag"))
        #expect(try harness.request("/2024-03-28", headers: ["If-None-Match": plain]).status == 304)
        // A gzipped representation (1 KiB and more) has its own strong validator.
        let range = "/2024-01-02..2024-03-28?symbols=USD,GBP"
        let identity = try #require(try harness.request(range).header("ETag"))
        let gzipped = try harness.request(range, headers: ["Accept-Encoding": "gzip"])
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.header("ETag") == String(identity.dropLast()) + "-gzip\"")
        // The tag is the first 128 bits of the SHA-256 of the media type, a line break and the body.
        let body = String(decoding: past.body, as: UTF8.self)
        let digest = try SpawnedProcess.run(
            PythonTools.system,
            [
                "-c", "import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest()[:32])",
                (past.header("Content-Type") ?? "") + "\n" + body,
            ])
        #expect("\"" + digest.out.trimmingCharacters(in: .whitespacesAndNewlines) + "\"" == plain)
    }

    /// SHA-256 against Python's hashlib on seeded inputs of every length around the block size.
    @Test func sha256AgreesWithHashlib() throws {
        var generator = SeededGenerator(seed: 256)
        var inputs: [[UInt8]] = [[]]
        for length in [1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 70_000] {
            inputs.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let directory = TemporaryDirectory()
        let file = directory.file("inputs.txt")
        try Data(inputs.map { $0.map { String(format: "%02x", $0) }.joined() + "\n" }.joined().utf8).write(to: file)
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [
                "-c",
                "import hashlib, sys\nfor h in open(sys.argv[1]).read().split('\\n')[:-1]: print(hashlib.sha256(bytes.fromhex(h)).hexdigest())",
                file.path,
            ])
        let expected = run.out.split(separator: "\n").map(String.init)
        #expect(expected.count == inputs.count)
        for (input, digest) in zip(inputs, expected) {
            #expect(SHA256.hex(input) == digest, "length \(input.count)")
        }
    }
}
