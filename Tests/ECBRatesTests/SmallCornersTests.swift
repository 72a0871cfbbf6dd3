import Foundation
import TestSupport
import Testing

/// Issue 25's smaller corners, each with the exact words a user now reads.
struct SmallCornersTests {
    @Test func aDirectoryOrAnEmptyStoreOptionIsNamedNotADiskError() throws {
        let directory = TemporaryDirectory()
        let inDirectory = try CommandRun.process(["rate", "USD", "--store", directory.url.path])
        #expect(inDirectory.status == 66)
        #expect(
            inDirectory.err
                == "Error: \(directory.url.path) is a directory, not a store; give the store file's path (like \(directory.url.path)/rates.sqlite)\n"
        )
        let empty = try CommandRun.process(
            ["import", FixturePaths.daily.path, "--store", ""], directory: directory.url)
        #expect(empty.status == 66 && empty.err.contains("is a directory, not a store"), "\(empty)")
    }

    @Test func aURLOfAnotherSchemeIsNotAMissingFile() throws {
        let directory = TemporaryDirectory()
        let run = try CommandRun.process([
            "import", "ftp://example.com/eurofxref.xml", "--store", directory.file("r.sqlite").path,
        ])
        #expect(
            run.err
                == "Error: ftp://example.com/eurofxref.xml: ftp:// is not fetched; give an http(s) URL, a file's path, or - for standard input\n"
        )
    }

    @Test func correctionsOfAnUnknownCurrencyAreRefusedAndOneDayIsOneDay() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let corrections = try CommandRun.process(["corrections", "--currency", "XYZ", "--store", store.path])
        #expect(
            corrections.status == 64 && corrections.err.hasPrefix("Error: Unknown currency 'XYZ'"), "\(corrections)")
        let stats = try CommandRun.process([
            "stats", "USD", "--from", "2024-03-28", "--to", "2024-03-28", "--store", store.path,
        ])
        #expect(stats.out.hasPrefix("USD per euro, 2024-03-28..2024-03-28 (1 day):\n"), "\(stats.out)")
    }
}
