import Foundation
import TestSupport
import Testing

/// Safe from the first byte: several `ecbrates import` processes started at the same instant on
/// a store that does not exist yet, with readers asking beside them, many times over. Creating
/// the store is part of the import lock (and one transaction in ManagedStore): every round ends
/// with one sound store equal to the file; every import exits 0 (with `--wait`) or 75 (without),
/// never 74; no reader sees an I/O error, only a rate or "no store yet".
@Suite(.serialized) struct ConcurrentCreationTests {
    static let rounds = 20

    @Test(arguments: [true, false])
    func importsStartedAtOnceOnAMissingStoreEndWithOneStore(waiting: Bool) throws {
        var failures: [String] = []
        for round in 0..<Self.rounds {
            let dir = TemporaryDirectory()
            let store = dir.file("new/rates.sqlite")
            let wait = waiting ? ["--wait", "600"] : []
            var importers: [SpawnedProcess.Running] = []
            var readers: [SpawnedProcess.Running] = []
            for _ in 0..<4 {
                importers.append(
                    try SpawnedProcess.Running(
                        CommandRun.executable,
                        ["import", FixturePaths.ninetyDays.path, "--store", store.path] + wait))
            }
            for _ in 0..<2 {
                readers.append(
                    try SpawnedProcess.Running(
                        CommandRun.executable, ["rate", "USD", "--date", "2026-09-30", "--store", store.path],
                        environment: ["ECBRATES_NOW": "2026-10-01T12:00:00Z"]))
            }
            let imports = try importers.map { try $0.wait(timeout: 120) }
            let answers = try readers.map { try $0.wait(timeout: 120) }
            let statuses = imports.map { $0.status ?? -1 }
            let allowed: Set<Int32> = waiting ? [0] : [0, 75]
            if !statuses.allSatisfy(allowed.contains) || !statuses.contains(0) {
                failures.append(
                    "round \(round): import statuses \(statuses): \(imports.filter { $0.status != 0 }.map(\.err))")
            }
            for answer in answers
            where !(answer.status == 0 && answer.out == "USD 1.1355 on 2026-09-30\n")
                && !(answer.status == 66 && answer.err.hasPrefix("Error: no store at \(store.path)"))
                && !(answer.status == 65 && answer.err.hasPrefix("Error: the store has no rates yet"))
            {
                failures.append("round \(round): a reader got \(answer)")
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: store.deletingLastPathComponent().path)
                .filter { $0.hasSuffix(".sqlite") }
            if files != ["rates.sqlite"] { failures.append("round \(round): files \(files)") }
            let stored = try StoreProbe(url: store).ratesByDay()
            if stored != (try fileRatesByDay(FixturePaths.ninetyDays)) {
                failures.append("round \(round): the store holds \(stored.count) days")
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
