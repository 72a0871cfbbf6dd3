import Foundation
import TestSupport
import Testing

/// `--as-of` at its edges: a moment to come is refused, and a moment before the store's first
/// import says so, naming the import (it said "the store has no rates yet", as if it held none).
struct AsOfEdgeTests {
    @Test func aMomentToComeIsAUsageError() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        // (By the real clock, which the store's import records are kept by.)
        let run = try CommandRun.process(["rate", "USD", "--as-of", "2999-01-01", "--store", store.path])
        #expect(run.status == 64, "\(run)")
        #expect(run.err.hasPrefix("Error: 2999-01-01T23:59:59Z is in the future (it is "), "\(run.err)")
        #expect(run.err.contains(" now): the store cannot say what it will hold then\n"), "\(run.err)")
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
