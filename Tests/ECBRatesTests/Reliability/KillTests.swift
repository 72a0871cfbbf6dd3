import Foundation
import TestSupport
import Testing

/// Killed mid-import: a full-history import in a child process, killed with SIGKILL at 20
/// seeded moments spread over the import. After each kill the store opens and is sound, holds
/// only whole days equal to the file's, shows the run as unfinished, and a re-run completes it.
///
/// A moment is a point of progress, not a time (a loaded machine runs the import slower or
/// faster from one case to the next): once the store holds a seeded share of the rates (0 to
/// 80 %), the kill comes a seeded 0 to 100 ms later, inside the chunk being stored then.
@Suite(.serialized) struct KillTests {
    /// The 20 moments: a share of the rates stored, and a delay after it.
    static let moments: [(share: Double, delay: Double)] = {
        var generator = SeededGenerator(seed: 2026_11_22)
        return (0..<20).map { _ in
            (Double.random(in: 0..<0.8, using: &generator), Double.random(in: 0..<0.1, using: &generator))
        }
        .sorted { $0.share < $1.share }
    }()

    @Test(arguments: 0..<20)
    func aKilledImportLosesNothingAndARerunCompletesIt(moment: Int) throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        let (share, delay) = Self.moments[moment]
        // Both of the import's methods, in turn: the default (objects saved per chunk) and the batch insert.
        let method = moment % 2 == 0 ? "object" : "batch"
        let child = try SpawnedProcess.Running(
            CommandRun.executable, ["import", FixturePaths.history.path, "--store", store.path, "--method", method])
        try #require(waitForRunningImport(probe, runs: 1) != nil, "the import never recorded its run")
        let target = Int(share * 221_064)
        Waiting.until(timeout: .seconds(120)) { probe.storedRateCount() >= target || child.hasEnded }
        Thread.sleep(forTimeInterval: delay)
        child.kill(SIGKILL)
        let killed = try child.wait()
        try #require(
            killed.signal == SIGKILL, "the import ended before the kill (\(target) rates, then \(delay) s): \(killed)")

        #expect(try probe.integrityCheck() == "ok")
        let stored = try probe.ratesByDay()
        let broken = stored.filter { day, rates in rates != historyByDay[day] }.keys.sorted()
        #expect(broken.isEmpty, "days stored in part or with other rates: \(broken.prefix(5))")
        let run = try probe.latestRun()
        #expect(run?.outcome == "running" && run?.finished == false, "\(String(describing: run))")

        // What the killed run stored, counted in the store: it could not record it itself.
        let kept = stored.values.map(\.count).reduce(0, +)
        let status = try CommandRun.process(["status", "--store", store.path])
        #expect(status.status == 0, "\(status)")
        #expect(status.out.contains("last import:  interrupted"), "\(status.out)")
        #expect(status.out.contains("(\(kept) rates, \(kept) new, 0 corrected)"), "\(status.out)")

        let rerun = try CommandRun.process([
            "import", FixturePaths.history.path, "--store", store.path, "--method", method,
        ])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.out.contains(": \(221_064 - kept) new, 0 corrected, \(kept) unchanged in "), "\(rerun.out)")
        #expect(try probe.ratesByDay() == historyByDay)
        #expect(try probe.integrityCheck() == "ok")
        #expect(try probe.indexNames().contains("Eurofxrefhist_index_currencySymbol_date"))
        let outcomes = try probe.rows("SELECT outcomeText, days, rates FROM ImportRun ORDER BY startedAt")
        #expect(
            outcomes.map { $0.map { $0 ?? "" } } == [
                ["interrupted", "\(stored.count)", "\(kept)"], ["succeeded", "7104", "221064"],
            ], "the killed run is recorded with what it stored")
    }
}

/// Waits (up to 60 s) until the store records `runs` import runs, the newest still running;
/// the moment it saw that, or nil.
func waitForRunningImport(_ probe: StoreProbe, runs: Int) -> ContinuousClock.Instant? {
    let running = Waiting.until(timeout: .seconds(60)) {
        guard let count = probe.runCount(), count >= runs else { return false }
        return (try? probe.latestRun())??.outcome == "running"
    }
    return running ? ContinuousClock.now : nil
}
