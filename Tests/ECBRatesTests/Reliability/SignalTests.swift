import Foundation
import TestSupport
import Testing

/// Interrupted politely: SIGINT or SIGTERM at seeded moments of a full-history import in a child
/// process (started with both signals at their default action). The import stops taking chunks,
/// lets those in flight commit whole, says exactly which days it stored, records the run as
/// interrupted, and exits 128 + the signal; a second signal kills it at once.
@Suite(.serialized) struct SignalTests {
    /// The moments: which signal, a share of the rates stored (0 to 70 %), and a delay after it.
    static let moments: [(signal: Int32, share: Double, delay: Double)] = {
        var generator = SeededGenerator(seed: 2026_11_23)
        return (0..<10).map { index in
            (
                index % 2 == 0 ? SIGINT : SIGTERM, Double.random(in: 0..<0.7, using: &generator),
                Double.random(in: 0..<0.05, using: &generator)
            )
        }
    }()

    /// The history's days in the file's order (newest first): chunks leave the reader in it.
    static let historyDaysInFileOrder: [String] = {
        var seen: [String] = []
        for line in (try? fileRates(FixturePaths.history)) ?? [] where seen.last != String(line.prefix(10)) {
            seen.append(String(line.prefix(10)))
        }
        return seen.sorted(by: >)
    }()

    @Test(arguments: 0..<10)
    func aSignalStopsTheImportAfterWholeChunksAndSaysWhatItStored(moment: Int) throws {
        let (signal, share, delay) = Self.moments[moment]
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        let child = try SpawnedProcess.Running(
            CommandRun.executable,
            [
                "import", FixturePaths.history.path, "--chunk-days", "20",
                "--workers", "2", "--store", store.path,
            ])
        try #require(waitForRunningImport(probe, runs: 1) != nil, "the import never recorded its run")
        let target = Int(share * 221_064)
        Waiting.until(timeout: .seconds(120)) { probe.storedRateCount() >= target || child.hasEnded }
        Thread.sleep(forTimeInterval: delay)
        child.kill(signal)
        let result = try child.wait()
        try #require(
            result.status == 128 + signal, "moment \(moment) (\(name) at \(target) rates + \(delay) s): \(result)")

        // What it says: exactly the days stored, as a count and a range.
        #expect(result.err == "Error: interrupted by \(name)\n", "\(result.err)")
        let line = try #require(
            result.out.firstMatch(
                of:
                    /: interrupted by (\w+) after storing (\d+) whole days? \((\d{4}-\d\d-\d\d)(?:\.\.(\d{4}-\d\d-\d\d))?\): (\d+) new, 0 corrected, 0 unchanged\n/
            ),
            "\(result.out)")
        #expect(String(line.1) == name)
        let count = Int(line.2)!
        let stored = try probe.ratesByDay()
        #expect(stored.count == count, "the report says \(count) days, the store holds \(stored.count)")
        #expect(stored.keys.min() == String(line.3) && stored.keys.max() == String(line.4 ?? line.3))
        #expect(Int(line.5)! == stored.values.map(\.count).reduce(0, +))
        // Whole days, equal to the file's, and exactly the first ones of the file.
        let broken = stored.filter { day, rates in rates != historyByDay[day] }.keys.sorted()
        #expect(broken.isEmpty, "days stored in part or with other rates: \(broken.prefix(5))")
        #expect(
            Set(stored.keys) == Set(Self.historyDaysInFileOrder.prefix(count)),
            "the days stored are not the file's first \(count)")
        #expect(count < Self.historyDaysInFileOrder.count)

        // The import log: interrupted, finished, naming the days.
        let run = try probe.rows("SELECT outcomeText, finishedAt IS NOT NULL, errorMessage, days FROM ImportRun").first
        #expect(run?[0] == "interrupted" && run?[1] == "1", "\(String(describing: run))")
        #expect(
            run?[2]?.hasPrefix("interrupted by \(name); stored before it: \(count) whole day") == true,
            "\(String(describing: run))")
        #expect(run?[3] == "\(count)")
        #expect(try probe.integrityCheck() == "ok")
    }

    /// `timeout(1)` sends its signal to the command and then to its process group: two at once.
    /// They are one request (within 20 ms), not a first and a second that kills. (Run with
    /// --quiet, which never hides what a stopped import stored.)
    @Test func twoSignalsAtOnceAreOneRequest() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        let child = try SpawnedProcess.Running(
            CommandRun.executable,
            [
                "import", FixturePaths.history.path, "--chunk-days", "20", "--workers", "2", "--quiet", "--store",
                store.path,
            ])
        try #require(waitForRunningImport(probe, runs: 1) != nil, "the import never recorded its run")
        child.kill(SIGINT)
        child.kill(SIGINT)
        let result = try child.wait()
        #expect(result.status == 130, "\(result)")
        // Even with --quiet, what a stopped import stored is said (on standard error, for cron).
        #expect(result.out.isEmpty, "\(result)")
        #expect(result.err.contains(": interrupted by SIGINT after storing "), "\(result)")
        #expect(result.err.hasSuffix("Error: interrupted by SIGINT\n"), "\(result)")
        #expect(try probe.integrityCheck() == "ok")
    }

    @Test func aSecondSignalKillsAtOnce() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let probe = StoreProbe(url: store)
        // One worker storing chunks of 4,000 days: the first chunk is in flight for a while.
        let child = try SpawnedProcess.Running(
            CommandRun.executable,
            [
                "import", FixturePaths.history.path, "--chunk-days", "4000",
                "--workers", "1", "--store", store.path,
            ])
        try #require(waitForRunningImport(probe, runs: 1) != nil, "the import never recorded its run")
        Thread.sleep(forTimeInterval: 0.2)
        child.kill(SIGTERM)
        Thread.sleep(forTimeInterval: 0.05)
        child.kill(SIGTERM)
        let result = try child.wait()
        #expect(result.signal == SIGTERM, "the second SIGTERM did not kill it: \(result)")
        let stored = try probe.ratesByDay()
        #expect(stored.filter { day, rates in rates != historyByDay[day] }.isEmpty, "a day stored in part")
        #expect(try probe.integrityCheck() == "ok")
    }

    @Test func aSignalWhileWaitingForTheLockEndsTheWaitWithNothingStored() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let first = try CommandRun.process(["import", FixturePaths.daily.path, "--store", store.path])
        try #require(first.status == 0, "\(first)")
        // Another import holds the lock (this process, through the lock file's flock).
        let fd = open(store.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        defer { close(fd) }
        let child = try SpawnedProcess.Running(
            CommandRun.executable,
            [
                "import", FixturePaths.ninetyDays.path, "--wait", "60",
                "--store", store.path,
            ])
        // It traps its signals, opens the store, then waits for the lock.
        try #require(
            Waiting.until {
                Waiting.process(child.pid, catches: SIGINT) && Waiting.process(child.pid, hasOpen: store.path)
            })
        child.kill(SIGINT)
        let result = try child.wait(timeout: 30)
        #expect(result.status == 130, "\(result)")
        #expect(result.err == "Error: interrupted by SIGINT\n", "\(result.err)")
        #expect(try StoreProbe(url: store).ratesByDay() == fileRatesByDay(FixturePaths.daily))
    }

    @Test func aSignalDuringADownloadEndsItWithinASecondAndRecordsTheRunAsInterrupted() throws {
        let listener = try SilentListener()
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let first = try CommandRun.process(["import", FixturePaths.daily.path, "--store", store.path])
        try #require(first.status == 0, "\(first)")
        let url = "http://127.0.0.1:\(listener.port)/eurofxref-hist-90d.xml"
        let child = try SpawnedProcess.Running(CommandRun.executable, ["import", url, "--store", store.path])
        try #require(Waiting.until { listener.hasWaitingConnection }, "the import never connected")
        let signalled = ContinuousClock.now
        child.kill(SIGTERM)
        let result = try child.wait(timeout: 60)
        #expect(result.status == 143, "\(result)")
        // The silent server would keep it 4 × 20 s + 7 s; the stop is seen within about a second.
        #expect(ContinuousClock.now - signalled < .seconds(30), "the download went on after the signal")
        #expect(
            result.out == "\(url): interrupted by SIGTERM after storing no day: 0 new, 0 corrected, 0 unchanged\n",
            "\(result.out)")
        #expect(result.err == "Error: interrupted by SIGTERM\n")
        let run = try StoreProbe(url: store).rows(
            "SELECT outcomeText, errorMessage FROM ImportRun ORDER BY startedAt DESC, Z_PK DESC LIMIT 1"
        ).first
        #expect(run?[0] == "interrupted", "\(String(describing: run))")
        #expect(try StoreProbe(url: store).ratesByDay() == fileRatesByDay(FixturePaths.daily))
    }
}
