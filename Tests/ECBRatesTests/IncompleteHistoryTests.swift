import Foundation
import TestSupport
import Testing

/// A store that begins after where its history should (the ECB's first day, or the day an
/// import was asked to start from) is incomplete: `status` says so and fails `--max-age-days`,
/// an answer for a day in the gap says so, and the no-argument import fills it. The days
/// missing are counted against the bundled history file itself: the ECB's publication days
/// before the store's first day.
@Suite(.serialized) struct IncompleteHistoryTests {
    /// The days of the bundled history before `day`: what the ECB published that the store lacks.
    static func historyDays(before day: String) throws -> Int {
        Set(try fileRates(FixturePaths.history).map { String($0.prefix(10)) }).filter { $0 < day }.count
    }

    private static func process(
        _ arguments: [String], _ environment: [String: String] = [:]
    ) async throws
        -> CommandRun
    {
        try await Task.detached { try CommandRun.process(arguments, environment: environment) }.value
    }

    @Test func aStoreOfTheNinetyDayFileIsIncompleteAndSaysSo() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite").path
        _ = try CommandRun.process(["import", FixturePaths.ninetyDays.path, "--store", store, "--quiet"])
        let missing = try Self.historyDays(before: "2026-07-03")
        let gap =
            "it begins on 2026-07-03, but should begin on 1999-01-04 (the ECB's first reference rates); "
            + "the rates of \(missing) business days are missing before it; 'ecbrates import' fills them"

        let status = try CommandRun.process(["status", "--store", store])
        #expect(status.out.contains("\nhistory:      incomplete: \(gap)\n"), "\(status.out)")
        // --max-age-days: fresh enough (56 days behind, 100 allowed), but incomplete: exit 1.
        let checked = try CommandRun.process(["status", "--max-age-days", "100", "--store", store])
        #expect(checked.status == 1, "\(checked)")
        #expect(checked.err == "the store's history is incomplete: \(gap)\n")
        // Every reason the check fails is named; under JSON each is an object with its code.
        let both = try CommandRun.process(["status", "--max-age-days", "3", "--format", "json", "--store", store])
        #expect(both.status == 1)
        #expect(
            both.err.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["code"] as? String
            } == ["stale-store", "incomplete-history"], "\(both.err)")
        let json = try CommandRun.process(["status", "--format", "json", "--store", store])
        #expect(
            json.out.contains(
                #""history":{"complete":false,"shouldBegin":"1999-01-04","asked":false,"missingBusinessDays":\#(missing)}"#
            ), "\(json.out)")

        // A fallback never reaches across the gap: 2026-07-02 was published, the store lacks it.
        for fallback in ["next", "nearest"] {
            let reaching = try CommandRun.process(
                ["rate", "USD", "--date", "2026-07-02", "--fallback", fallback, "--store", store])
            #expect(reaching.status == 65 && reaching.err.contains("the store's history is incomplete"), "\(reaching)")
        }
        // An answer for a day in the gap says why there is none.
        let rate = try CommandRun.process(["rate", "USD", "--date", "2005-03-01", "--store", store])
        #expect(rate.status == 65)
        #expect(
            rate.err
                == "Error: no rates before 2026-07-03: the store holds 2026-07-03..2026-09-30 (asked 2005-03-01); "
                + "the store's history is incomplete: \(gap)\n")
    }

    @Test func aStoreAskedToBeginLaterIsComplete() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite").path
        _ = try CommandRun.process(
            ["import", FixturePaths.history.path, "--from", "2020-01-01", "--store", store, "--quiet"])
        let status = try CommandRun.process(["status", "--store", store])
        #expect(
            status.out.contains("\nhistory:      complete from 2020-01-01 (asked for with --from)\n"), "\(status.out)")
        let checked = try CommandRun.process(["status", "--max-age-days", "100", "--store", store])
        #expect(checked.status == 0, "\(checked)")
        // Before the day asked for, the answer is the plain one: no talk of a gap.
        let rate = try CommandRun.process(["rate", "USD", "--date", "2019-03-01", "--store", store])
        #expect(
            rate.err == "Error: no rates before 2020-01-02: the store holds 2020-01-02..2026-09-30 (asked 2019-03-01)\n"
        )
    }

    /// The issue's case: an interrupted history import keeps its newest days; the nightly
    /// no-argument import then fills the early years (from a mirror of the ECB's folder).
    @Test func anInterruptedHistoryIsReportedAndTheNextImportFillsIt() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        let child = try SpawnedProcess.Running(
            CommandRun.executable,
            ["import", FixturePaths.history.path, "--chunk-days", "20", "--workers", "2", "--store", store.path])
        try #require(waitForRunningImport(probe, runs: 1) != nil, "the import never recorded its run")
        Waiting.until(timeout: .seconds(120)) { probe.storedRateCount() >= 50_000 || child.hasEnded }
        child.kill(SIGINT)
        let result = try child.wait()
        try #require(result.status == 130, "\(result)")
        let first = try #require(try probe.ratesByDay().keys.min())
        let missing = try Self.historyDays(before: first)
        try #require(missing > 0)

        let status = try await Self.process(["status", "--max-age-days", "100", "--store", store.path])
        #expect(status.status == 1)
        #expect(
            status.err
                == "the store's history is incomplete: it begins on \(first), but should begin on 1999-01-04 (the ECB's first reference rates); the rates of \(missing) business day\(missing == 1 ? " are" : "s are") missing before it; 'ecbrates import' fills them\n"
        )

        let root = TemporaryDirectory()
        for file in [FixturePaths.ninetyDays, FixturePaths.history] {
            try FileManager.default.copyItem(at: file, to: root.file(file.lastPathComponent))
        }
        let server = try LoopbackServer(serving: root.url)
        let run = try await Self.process(
            ["import", "--store", store.path], ["ECBRATES_ECB_URL": server.url("/ok/").absoluteString])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.out.hasPrefix(
                "note: the store's history was incomplete: it began on \(first), but should begin on 1999-01-04 (the ECB's first reference rates), \(missing) business day\(missing == 1 ? "" : "s") earlier: the full history was imported to fill it\n"
            ), "\(run.out)")
        #expect(try await server.requestCount("/ok/eurofxref-hist.xml") == 1)
        #expect(try await server.requestCount("/ok/eurofxref-hist-90d.xml") == 0)
        #expect(try storedRates(store) == fileRates(FixturePaths.history))
        let after = try await Self.process(["status", "--store", store.path])
        #expect(after.out.contains("\nhistory:      complete from 1999-01-04 (the ECB's first reference rates)\n"))
    }
}
