import Foundation
import TestSupport
import Testing

/// `ecbrates serve` under load and abuse from real sockets (load_check.py): many clients while
/// another process imports, thousands of idle and slowloris connections.
@Suite(.serialized) struct LoadTests {
    @Test func twoHundredClientsDuringAnImportGetWholeDaysAndTheNewDayWithinASecond() async throws {
        let directory = TemporaryDirectory()
        let store = directory.file("rates.sqlite")
        let stored = try CommandRun.process([
            "import", FixturePaths.history.path, "--to", "2026-08-31", "--store", store.path,
        ])
        #expect(stored.status == 0, "\(stored)")
        let served = try await ServedStore(store: store)
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [
                PythonTools.serverScript("load_check.py"), "load", CommandRun.executable.path, store.path,
                served.baseURL, FixturePaths.history.path, FixturePaths.ninetyDays.path, "200", "8",
            ])
        #expect(run.status == 0, "\(run.out.suffix(3_000)) \(run.err.suffix(2_000))")
        #expect(run.out.contains(" 0 5xx,") && run.out.contains(", 0 failures"), "\(run.out.prefix(600))")
        let ended = try served.stop()
        #expect(ended.status == 0)
    }

    @Test func fiveThousandIdleAndSlowConnectionsLeaveTheServerAnswering() async throws {
        let served = try await ServedStore()
        let run = try SpawnedProcess.run(
            PythonTools.system, [PythonTools.serverScript("load_check.py"), "idle", served.baseURL, "5000"])
        #expect(run.status == 0, "\(run.out.suffix(3_000)) \(run.err.suffix(2_000))")
        #expect(run.out.hasPrefix("5000 connections held (0 refused at connect"), "\(run.out.prefix(600))")
        #expect(try RawHTTP.get("/latest", port: served.port).status == 200)
    }
}
