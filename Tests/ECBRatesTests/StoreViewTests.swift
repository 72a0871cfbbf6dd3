import ECBRates
import Foundation
import TestSupport
import Testing

/// The store's SQL interface for other languages (docs/store.md): the views `rates`, `imports`
/// and `corrections`, read here by Python's sqlite3 module and the sqlite3 tool and checked
/// against the ECB's file itself (read with expat), never against ecbrates' own output.
@Suite struct StoreViewTests {
    static func sqlite3(_ store: URL, _ sql: String) throws -> String {
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-readonly", store.path, sql],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "sqlite3: \(run.err)")
        return run.out
    }

    @Test func theRatesViewHoldsEveryPublishedRateAsItsText() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let check = try SpawnedProcess.run(
            PythonTools.system,
            [
                FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/store_views_check.py").path,
                store.path, FixturePaths.history.path, "1",
            ], environment: ["PATH": "/usr/bin:/bin"], timeout: 300)
        #expect(check.status == 0 && check.out == "ok 221064 rates\n", "\(check.out)\(check.err)")
    }

    @Test func theCorrectionsViewNamesTheOldAndTheNewRate() throws {
        let directory = TemporaryDirectory()
        let store = directory.file("rates.sqlite")
        let xml = try String(contentsOf: FixturePaths.ninetyDays, encoding: .utf8)
        let rates = CorrectionsTests.rates(in: xml)
        let key = rates.keys.sorted()[3]
        let corrected = CorrectionsTests.nudged(rates[key]!, step: 3)
        let changed = directory.file("corrected.xml")
        try CorrectionsTests.changing(xml, [key: corrected], from: rates).write(
            to: changed, atomically: true, encoding: .utf8)
        #expect(
            try CommandRun.process(["import", FixturePaths.ninetyDays.path, "--quiet", "--store", store.path]).status == 0)
        #expect(try CommandRun.process(["import", changed.path, "--quiet", "--store", store.path]).status == 0)
        let day = key.prefix(10), code = key.suffix(3)
        #expect(
            try Self.sqlite3(store, "SELECT day, currency, old_rate, new_rate, import_id FROM corrections")
                == "\(day)|\(code)|\(rates[key]!)|\(corrected)|2\n")
        #expect(
            try Self.sqlite3(store, "SELECT rate FROM rates WHERE day = '\(day)' AND currency = '\(code)'")
                == "\(corrected)\n")
        #expect(
            try Self.sqlite3(store, "SELECT id, outcome, corrected FROM imports ORDER BY id")
                == "1|succeeded|0\n2|succeeded|1\n")
    }

    /// A store of the first release (model version 1, no views) gains them on its first query,
    /// by the migration a query makes when it may write the store.
    @Test func aStoreOfAnEarlierReleaseGainsTheViewsOnItsFirstQuery() throws {
        let directory = TemporaryDirectory()
        let store = directory.file("old.sqlite")
        try FileManager.default.copyItem(
            at: FixturePaths.fixtures.appendingPathComponent("stores/rates-model1.sqlite"), to: store)
        #expect(try Self.sqlite3(store, "SELECT count(*) FROM sqlite_master WHERE type = 'view'") == "0\n")
        let query = try CommandRun.process(["currencies", "--store", store.path])
        #expect(query.status == 0, "\(query)")
        #expect(
            try Self.sqlite3(store, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
                == "corrections\nimports\nrates\n")
        #expect(
            try Self.sqlite3(store, "SELECT count(*) = (SELECT count(*) FROM Eurofxrefhist) FROM rates") == "1\n")
    }

    /// A user who may read the store but not write it (the system store, for anyone but its
    /// owner) queries it as it is: the views wait for a process that can make them.
    @Test func aReaderWhoCannotWriteTheStoreIsNotStoppedByMissingViews() async throws {
        let directory = TemporaryDirectory()
        chmod(directory.url.path, 0o755)
        let store = try await PreparedStore.copy(into: directory)
        let drop = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [store.path, "DROP VIEW rates; DROP VIEW imports; DROP VIEW corrections;"],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(drop.status == 0, "\(drop.err)")
        chmod(store.path, 0o644)
        let arguments = ["rate", "USD", "--date", "2024-03-28", "--store", store.path]
        let run: CommandRun
        if getuid() == 0 {
            let child = try SpawnedProcess.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", CommandRun.executable.path] + arguments)
            run = CommandRun(status: child.status ?? -1, out: child.out, err: child.err)
        } else {
            chmod(directory.url.path, 0o555)
            run = try CommandRun.process(arguments)
            chmod(directory.url.path, 0o755)
        }
        #expect(run.status == 0 && run.out == "USD 1.0811 on 2024-03-28\n", "\(run)")
        #expect(try Self.sqlite3(store, "SELECT count(*) FROM sqlite_master WHERE type = 'view'") == "0\n")
    }
}
