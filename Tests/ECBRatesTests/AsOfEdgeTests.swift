import ECBRates
import Foundation
import TestSupport
import Testing

/// `--as-of` at its edges: a moment to come is refused, and a moment before the store's first
/// import says so, naming the import (it said "the store has no rates yet", as if it held none).
struct AsOfEdgeTests {
    /// Whether two moments fall on the same UTC day.
    enum CalendarDayText {
        static func same(_ one: Date, _ other: Date) -> Bool {
            one.formatted(.iso8601).prefix(10) == other.formatted(.iso8601).prefix(10)
        }
    }

    /// A moment to come cannot be answered yet: said as for a day to come (exit 65), not as a
    /// usage error (no usage text after it).
    @Test func aMomentToComeIsRefusedWithoutUsageText() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        // (By the real clock, which the store's import records are kept by.)
        let run = try CommandRun.process(["rate", "USD", "--as-of", "2999-01-01", "--store", store.path])
        #expect(run.status == 65, "\(run)")
        #expect(run.err.hasPrefix("Error: 2999-01-01T23:59:59Z is in the future (it is "), "\(run.err)")
        #expect(run.err.hasSuffix(" now): the store cannot say what it will hold then\n"), "\(run.err)")
        #expect(!run.err.contains("Usage:") && !run.err.contains("--help"), "\(run.err)")
        let json = try CommandRun.process([
            "rate", "USD", "--as-of", "2999-01-01", "--store", store.path, "--format", "json",
        ])
        #expect(json.err.contains(#""code":"as-of-future""#), "\(json.err)")
    }

    /// As of today (the day, whose last second has not come) means now: answered, and the
    /// answer names the moment it used; a time later today is still refused (issue 35, 2).
    @Test func asOfTodayIsAsOfNow() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let today = String(Date().formatted(.iso8601).prefix(10))
        let before = Date()
        let run = try CommandRun.process([
            "rate", "USD", "--date", "2026-09-30", "--as-of", today, "--store", store.path, "--format", "json",
        ])
        #expect(run.status == 0, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let moment = try #require((object["asOf"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
        #expect(moment >= before.addingTimeInterval(-1) && moment <= Date(), "asOf \(object["asOf"] ?? "none")")
        #expect(object["rate"] as? NSNumber == NSNumber(value: 1.1355), "\(run.out)")
        let later = Date().addingTimeInterval(3600)
        guard CalendarDayText.same(later, Date()) else { return }  // (within an hour of midnight: skipped)
        let refused = try CommandRun.process([
            "rate", "USD", "--as-of", later.formatted(.iso8601), "--store", store.path,
        ])
        #expect(refused.status == 65 && refused.err.contains("is in the future"), "\(refused)")
    }

    @Test func aMomentBeforeTheFirstImportNamesIt() async throws {
        let directory = TemporaryDirectory()
        let store = directory.file("rates.sqlite")
        let imported = try CommandRun.process(["import", FixturePaths.ninetyDays.path, "--store", store.path])
        #expect(imported.status == 0, "\(imported)")
        let run = try CommandRun.process(["rate", "USD", "--as-of", "2020-01-01", "--store", store.path])
        #expect(run.status == 65, "\(run)")
        #expect(
            run.err.hasPrefix(
                "Error: the store held nothing at 2020-01-01T23:59:59Z: its first import (\(FixturePaths.ninetyDays.path)) ended at "
            ), "\(run.err)")
        // A moment after it (to the second, so a second later): answered.
        try await Task.sleep(for: .seconds(1.1))
        let later = try CommandRun.process([
            "rate", "USD", "--date", "2026-09-30", "--as-of", Date().formatted(.iso8601),
            "--store", store.path,
        ])
        #expect(later.status == 0 && later.out.contains("1.1355"), "\(later)")
    }

    @Test func anEmptyStoreIsCalledEmptyByStatus() async throws {
        let directory = TemporaryDirectory()
        let store = directory.file("rates.sqlite")
        // An import that stores nothing (a range with no day) leaves an empty store behind.
        _ = try CommandRun.process([
            "import", FixturePaths.ninetyDays.path, "--from", "2030-01-01", "--store", store.path,
        ])
        let run = try CommandRun.process(["status", "--max-age-days", "3", "--store", store.path])
        #expect(run.status == 1, "\(run)")
        #expect(run.err == "the store is empty: no rates at all; run 'ecbrates import'\n", "\(run.err)")
    }
}

extension AsOfEdgeTests {
    /// Seeded: every RFC 3339 time with an offset from -23:59 to +23:59 (Foundation's parser
    /// refused those past ±18 hours, which the OpenAPI document's `date-time` allows), with or
    /// without fractions, is the moment Python's `datetime.fromisoformat` reads.
    @Test func everyRFC3339OffsetIsTheMomentPythonReads() throws {
        let seed = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...999_999)
        var generator = SeededGenerator(seed: seed)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var texts: [String] = []
        for _ in 0..<300 {
            let year = Int.random(in: 1000...2999, using: &generator)
            let day = "\(year)-\(two(Int.random(in: 1...12, using: &generator)))-\(two(Int.random(in: 1...28, using: &generator)))"
            let time = "\(two(Int.random(in: 0...23, using: &generator))):\(two(Int.random(in: 0...59, using: &generator))):\(two(Int.random(in: 0...59, using: &generator)))"
            let fraction = Bool.random(using: &generator) ? ".\(Int.random(in: 1...999, using: &generator))" : ""
            let zone =
                Int.random(in: 0..<5, using: &generator) == 0
                ? "Z"
                : "\(Bool.random(using: &generator) ? "+" : "-")\(two(Int.random(in: 0...23, using: &generator))):\(two(Int.random(in: 0...59, using: &generator)))"
            texts.append("\(day)T\(time)\(fraction)\(zone)")
        }
        // Python's reading, in milliseconds since 1970 (its own calendar arithmetic).
        let script = """
            import sys
            from datetime import datetime
            for line in sys.stdin.read().split():
                moment = datetime.fromisoformat(line.replace("Z", "+00:00"))
                print(round(moment.timestamp() * 1000))
            """
        let input = TemporaryDirectory()
        try Data(texts.joined(separator: "\n").utf8).write(to: input.file("times.txt"))
        let python = try SpawnedProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "python3 -c \"$1\" < \"$2\"", "sh", script, input.file("times.txt").path])
        let expected = python.out.split(separator: "\n").map { Int64($0) }
        try #require(expected.count == texts.count, "\(python.err)")
        for (text, milliseconds) in zip(texts, expected) {
            let parsed = AsOfMoment.parse(text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
            #expect(parsed == milliseconds, "\(text): rebuild with ECBRATES_SEED=\(seed)")
        }
    }
}
