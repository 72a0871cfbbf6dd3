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

    @Test func anotherCSVIsNamedACSVNotCalledNotXML() throws {
        let directory = TemporaryDirectory()
        let invoices = directory.file("invoices.csv")
        try "invoice,date,amount\nA-1,2024-03-28,100\n".write(to: invoices, atomically: true, encoding: .utf8)
        let run = try CommandRun.process(["import", invoices.path, "--store", directory.file("r.sqlite").path])
        #expect(run.status == 65)
        #expect(
            run.err
                == "Error: \(invoices.path):1:1: this is a CSV file, but not one of the ECB's (it begins \"invoice,date,amount\"); expected the ECB's CSV (a header Date,USD,JPY,…) or its XML (<gesmes:Envelope>)\n"
        )
    }

    @Test func validateReadsEveryFileAndReportsEachBadOne() throws {
        let bad1 = FixturePaths.broken.appendingPathComponent("rate-nan.xml").path
        let bad2 = FixturePaths.broken.appendingPathComponent("rate-comma.xml").path
        let run = try CommandRun.process(["validate", bad1, FixturePaths.daily.path, bad2])
        #expect(run.status == 65)
        #expect(run.out.contains("eurofxref-daily.xml"), "\(run)")
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 3, "\(run.err)")
        #expect(
            lines.first?.hasPrefix("Error: \(bad1):9:") == true
                && lines.dropFirst().first?.hasPrefix("Error: \(bad2):9:") == true)
        #expect(lines.last == "2 of 3 files failed: \(bad1), \(bad2)")
        // Under JSON the answer lists the good files and the failed ones; standard error has one
        // JSON error, as every command's.
        let json = try CommandRun.process(["validate", bad1, FixturePaths.daily.path, bad2, "--format", "json"])
        #expect(json.status == 65)
        let answer = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect((answer?["files"] as? [Any])?.count == 1, "\(json.out)")
        #expect(
            (answer?["failed"] as? [[String: String]])?.map { $0["source"] ?? "" } == [bad1, bad2], "\(json.out)")
        #expect(
            json.err
                == #"{"error":"2 of 3 files failed: \#(bad1), \#(bad2)","code":"bad-data","exitStatus":65}"# + "\n",
            "\(json.err)")
    }

    /// A store this user may not read (mode 0000) is said so, with its mode and owner, by a
    /// query and by an import alike: not "unable to open database file", not "read-only".
    /// (Run as nobody through setpriv when the tests run as root, who may read anything.)
    @Test func anUnreadableStoreIsCalledUnreadableNotReadOnly() async throws {
        let directory = TemporaryDirectory()
        chmod(directory.url.path, 0o755)
        let store = try await PreparedStore.copy(into: directory)
        chmod(store.path, 0)
        func run(_ arguments: [String]) throws -> CommandRun {
            let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", CommandRun.executable.path]
            if getuid() == 0 {
                let child = try SpawnedProcess.run(URL(fileURLWithPath: "/usr/bin/setpriv"), asNobody + arguments)
                return CommandRun(status: child.status ?? -1, out: child.out, err: child.err)
            }
            return try CommandRun.process(arguments)
        }
        let expected =
            "Error: cannot read the store \(store.path): permission denied (mode 0000, owner uid \(getuid())); ask its owner to make it readable, or give another --store\n"
        let query = try run(["rate", "USD", "--date", "2024-03-28", "--store", store.path])
        #expect(query.status == 74 && query.err == expected, "\(query)")
        let imported = try run(["import", FixturePaths.daily.path, "--store", store.path])
        #expect(imported.status == 74 && imported.err == expected, "\(imported)")
    }

    @Test func anUnknownCurrencyHasItsOwnCodeInJSON() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try CommandRun.process(["rate", "XYZ", "--format", "json", "--store", store.path])
        #expect(run.status == 64)
        #expect(run.err == #"{"error":"Unknown currency 'XYZ'","code":"unknown-currency","exitStatus":64}"# + "\n")
    }

    /// A store whose newest day is the newest due but with holes inside is not "empty".
    @Test func aStoreWithHolesIsNotCalledEmpty() throws {
        let directory = TemporaryDirectory()
        let store = directory.file("r.sqlite").path
        let now = ["ECBRATES_NOW": "2026-10-01T12:00:00Z"]
        _ = try CommandRun.process(
            ["import", FixturePaths.ninetyDays.path, "--store", store, "--quiet"], environment: now)
        _ = try CommandRun.process(
            [
                "import", FixturePaths.history.path, "--from", "2026-01-01", "--to", "2026-05-31", "--store", store,
                "--quiet",
            ],
            environment: now)
        let status = try CommandRun.process(["status", "--store", store], environment: now)
        #expect(
            status.out.contains(
                "freshness:    up to its newest day (rates of 2026-09-30 are the newest due), but with holes\n"),
            "\(status.out)")
        #expect(status.out.contains("\nholes:        "), "\(status.out)")
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
