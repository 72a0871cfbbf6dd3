import Foundation
import TestSupport
import Testing

/// Two processes at once: while one imports the full history, another asks for rates in a
/// loop, as separate `ecbrates` processes. No query fails, each answer shows every day either
/// as before the import or as after it, whole; a second import meanwhile exits 75, or waits.
@Suite struct TwoProcessTests {
    @Test func queriesDuringAnImportSeeWholeDaysAndASecondImportWaitsOrExitsSeventyFive() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        // The state before: the 90-day file (July to September 2026).
        let before = try CommandRun.process(["import", FixturePaths.ninetyDays.path, "--store", store.path])
        try #require(before.status == 0, "\(before)")
        let oldState = try probe.ratesByDay()

        let importer = try SpawnedProcess.Running(
            CommandRun.executable, ["import", FixturePaths.history.path, "--store", store.path])
        try #require(waitForRunningImport(probe, runs: 2) != nil, "the import never started")

        // A second import, while the first runs: refused at once with 75, naming the holder…
        let refused = try CommandRun.process(["import", FixturePaths.daily.path, "--store", store.path])
        // …or, with --wait, run once the first is done.
        let waiter = try SpawnedProcess.Running(
            CommandRun.executable, ["import", FixturePaths.daily.path, "--wait", "300", "--store", store.path])

        // Queries in a loop, each a process of its own, until the import ends.
        var answers = 0
        var failures: [String] = []
        while answers < 3 || !importer.hasEnded {
            // --partial: while the import runs, the range is not whole yet; the answer says so.
            let query = try CommandRun.process([
                "export", "--from", "2026-01-01", "--to", "2026-09-30", "--layout", "long", "--partial",
                "--store", store.path,
            ])
            answers += 1
            let warnedOnly =
                query.err.isEmpty
                || (query.err.hasPrefix("warning: the answer is incomplete: ")
                    && query.err.split(separator: "\n").count == 1)
            guard query.status == 0, warnedOnly else {
                failures.append("\(query)")
                continue
            }
            var days: [String: Set<String>] = [:]
            for line in query.out.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",")
                days[String(fields[0]), default: []].insert("\(fields[1]) \(fields[2])")
            }
            for (day, rates) in days where rates != historyByDay[day] {
                failures.append("\(day) answered in part: \(rates.count) of \(historyByDay[day]?.count ?? 0) rates")
            }
            let oldDays = oldState.keys.filter { $0 >= "2026-01-01" }
            if !Set(oldDays).isSubset(of: days.keys) {
                failures.append("an answer lost days the store held before the import")
            }
            if answers > 2_000 { break }
        }
        let imported = try importer.wait()
        #expect(imported.status == 0, "\(imported)")
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(answers >= 3)

        #expect(refused.status == 75, "\(refused)")
        #expect(refused.err.contains("another import is running (pid \(importer.pid))"), "\(refused.err)")
        let waited = try waiter.wait(timeout: 300)
        #expect(waited.status == 0, "\(waited)")
        #expect(try probe.ratesByDay() == historyByDay)
        #expect(try probe.integrityCheck() == "ok")
    }

}
