import ECBRates
import Foundation
import ManagedStore
import TestSupport
import Testing

/// The importer and `ecbrates import`, checked against the files themselves.
@Suite(.serialized) struct ImportTests {
    let history = FixturePaths.history
    let ninetyDays = FixturePaths.ninetyDays
    let daily = FixturePaths.daily

    /// On both of the import's methods (`object`, the default, and `batch`), as every test of
    /// the import's guarantees here: the stored rates, the report, whole days, the run log.
    @Test(arguments: ["object", "batch"])
    func theFullHistoryStoresEveryRateExactlyAndAReimportChangesNothing(method: String) async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let first = await ecbrates(["import", history.path, "--method", method], store: store)
        #expect(first.status == 0, "\(first)")
        #expect(
            first.out.hasPrefix(
                "\(history.path): 7104 days 1999-01-04..2026-09-30, 221064 rates: 221064 new, 0 corrected, 0 unchanged in "
            ))
        let expected = try fileRates(history)
        #expect(try storedRates(store) == expected)
        // The index on (currency, date), left out during the load into the empty store, is
        // there at the end and serves one currency's series.
        let plan = try sqlite3Lines(
            store,
            "EXPLAIN QUERY PLAN SELECT * FROM Eurofxrefhist WHERE currencySymbol = 'USD' AND date >= 0 ORDER BY date")
        #expect(
            plan.joined().contains("USING INDEX Eurofxrefhist_index_currencySymbol_date (currencySymbol=? AND date>?)"),
            "\(plan)")
        // The workers insert each chunk's days oldest first, so the unique (date, currency)
        // index grows by appending, and ends up nearly as compact as the (currency, date) one
        // built by sorting (inserted newest first, as the file runs, its pages were half empty:
        // 1,827 pages against 916).
        let pages = try sqlite3Lines(
            store, "SELECT name, count(*) FROM dbstat WHERE name LIKE 'Eurofxrefhist_%' GROUP BY name ORDER BY name")
        #expect(pages.count == 2, "\(pages)")
        if pages.count == 2, let sorted = Int(pages[0].split(separator: "|")[1]),
            let unique = Int(pages[1].split(separator: "|")[1])
        {
            #expect(Double(unique) <= Double(sorted) * 1.3, "\(pages)")
        }

        let second = await ecbrates(["import", history.path, "--method", method], store: store)
        #expect(second.status == 0)
        #expect(second.out.contains(": 0 new, 0 corrected, 221064 unchanged in "))
        #expect(second.out.hasSuffix("; nothing changed\n"))
        #expect(try storedRates(store) == expected)
    }

    @Test func aCorrectedRateIsUpdatedAndReported() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        _ = await ecbrates(["import", ninetyDays.path], store: store)
        // The ECB corrects USD on 2026-09-30 from 1.1355 to 1.1357.
        let corrected = try edited(
            ninetyDays, replacing: #"<Cube time="2026-09-30"><Cube currency="USD" rate="1.1355"/>"#,
            with: #"<Cube time="2026-09-30"><Cube currency="USD" rate="1.1357"/>"#, in: dir, name: "corrected.xml")
        let run = await ecbrates(["import", corrected.path], store: store)
        #expect(run.status == 0)
        #expect(run.out.contains(": 0 new, 1 corrected, 1855 unchanged in "))
        #expect(run.out.contains("\n  corrected USD on 2026-09-30: 1.1355 → 1.1357\n"))
        #expect(try storedRates(store).contains("2026-09-30 USD 1.1357"))
        #expect(!(try storedRates(store).contains("2026-09-30 USD 1.1355")))
    }

    @Test func theNinetyDayFileIntoAFullStoreAddsOnlyTheMissingDays() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        // The history up to 2026-09-15, then the 90-day file.
        _ = await ecbrates(["import", history.path, "--to", "2026-09-15"], store: store)
        let missing = try fileRates(ninetyDays).filter { $0 > "2026-09-15 ~" }
        let run = await ecbrates(["import", ninetyDays.path], store: store)
        #expect(run.status == 0)
        #expect(run.out.contains(": \(missing.count) new, 0 corrected, \(1856 - missing.count) unchanged in "))
        #expect(missing.count == 11 * 29, "11 business days after the 15th, 29 currencies")
        #expect(try storedRates(store) == fileRates(history))
    }

    @Test func theDailyFileWithTrailingZerosAfterTheHistoryIsUnchanged() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        _ = await ecbrates(["import", history.path], store: store)
        let run = await ecbrates(["import", daily.path], store: store)
        #expect(run.out.hasPrefix("\(daily.path): 1 day 2026-09-30, 29 rates: 0 new, 0 corrected, 29 unchanged in "))
    }

    @Test func oneWorkerAndFourWorkersGiveIdenticalStores() async throws {
        let dir = TemporaryDirectory()
        var stores: [[String]] = []
        for (workers, chunk) in [("1", "1"), ("4", "500"), ("2", "7"), ("3", "1000")] {
            let store = dir.file("rates-\(workers)-\(chunk).sqlite")
            let run = await ecbrates(
                ["import", ninetyDays.path, history.path, "--workers", workers, "--chunk-days", chunk], store: store)
            #expect(run.status == 0, "\(run)")
            stores.append(try storedRates(store))
        }
        #expect(
            stores.allSatisfy { $0 == stores[0] },
            "\(stores.map(\.count)) \(stores.map { Set($0).symmetricDifference(Set(stores[0])).sorted().prefix(3) })")
        #expect(stores[0] == (try fileRates(history)))
    }

    @Test func aDryRunReportsWhatWouldChangeAndLeavesTheStoreByteForByte() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        // As processes: one that has exited has closed its store (the WAL checkpointed and gone).
        _ = try CommandRun.process(["import", history.path, "--to", "2026-09-15", "--store", store.path])
        let before = try Data(contentsOf: store)
        let run = try CommandRun.process(["import", ninetyDays.path, "--dry-run", "--store", store.path])
        #expect(run.status == 0)
        #expect(run.out.contains(": 319 new, 0 corrected, 1537 unchanged in "))
        #expect(run.out.hasSuffix(" (dry run: nothing stored)\n"))
        #expect(try Data(contentsOf: store) == before)
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: store.path + "-wal"))) ?? Data()
        #expect(wal.isEmpty, "the dry run wrote nothing to the WAL either")
        let missing = dir.file("never-made.sqlite")
        let dry = await ecbrates(["import", daily.path, "--dry-run"], store: missing)
        #expect(dry.out.contains(": 29 new, 0 corrected, 0 unchanged in "))
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func filtersLimitTheDaysAndCurrencies() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let run = await ecbrates(
            ["import", history.path, "--from", "2020-03-09", "--to", "2020-03-13", "--currencies", "usd,JPY"],
            store: store)
        #expect(run.out.hasPrefix("\(history.path): 5 days 2020-03-09..2020-03-13, 10 rates: 10 new"))
        let expected = try fileRates(history).filter {
            $0 >= "2020-03-09" && $0 < "2020-03-14" && ($0.contains(" USD ") || $0.contains(" JPY "))
        }
        #expect(try storedRates(store) == expected)
    }

    @Test func aSecondImportWaitsOrExitsSeventyFiveNamingTheHolder() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let lock = ImportLock(storeURL: store)
        try await lock.acquire(waitingUpTo: 0)
        let refused = await ecbrates(["import", daily.path], store: store)
        #expect(refused.status == 75)
        #expect(
            refused.err
                == "Error: another import is running (pid \(getpid())); try again when it ends, or wait for it with --wait SECONDS\n"
        )
        // Released from a thread of its own 300 ms on: the waiting import holds no thread while
        // it waits, so even a busy test run lets this go on.
        let releaser = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            lock.release()
        }
        releaser.start()
        let waited = await ecbrates(["import", daily.path, "--wait", "60"], store: store)
        #expect(waited.status == 0, "\(waited)")
    }

    @Test(arguments: ["object", "batch"])
    func aBadFileMidWayStoresTheWholeDaysBeforeItAndARerunCompletes(method: String) async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        // A bad USD rate on 2026-08-14, a day in the middle of the 90-day file.
        let good = #"<Cube time="2026-08-14"><Cube currency="USD" rate="1.1567"/>"#
        let bad = try edited(
            ninetyDays, replacing: good, with: #"<Cube time="2026-08-14"><Cube currency="USD" rate="1,1567"/>"#,
            in: dir, name: "90d.xml")
        let line =
            try String(contentsOf: bad, encoding: .utf8).components(separatedBy: "\n").firstIndex {
                $0.contains("1,1567")
            }! + 1
        let run = await ecbrates(["import", bad.path, "--chunk-days", "7", "--method", method], store: store)
        #expect(run.status == 65)
        #expect(
            run.err == "Error: \(bad.path):\(line):52: rate \"1,1567\" for USD on 2026-08-14 is not a decimal number\n")
        // The days newer than the bad one (the file is newest first) are stored whole, and only they.
        let newer = try fileRates(ninetyDays).filter { $0 > "2026-08-14 ~" }
        #expect(try storedRates(store) == newer)
        #expect(
            run.out.contains(
                "stopped by the error below after storing \(newer.count / 29) whole days (2026-08-17..2026-09-30): \(newer.count) new"
            ))

        let fixed = try edited(bad, replacing: "1,1567", with: "1.1567", in: dir, name: "90d-fixed.xml")
        let rerun = await ecbrates(["import", fixed.path, "--method", method], store: store)
        #expect(rerun.status == 0)
        #expect(rerun.out.contains(": \(1856 - newer.count) new, 0 corrected, \(newer.count) unchanged in "))
        #expect(try storedRates(store) == fileRates(ninetyDays))
    }

    /// The day holding the error is never stored, not even the rates read before the error:
    /// here the third rate of a day in the middle is bad (the issue's own example).
    @Test func aBadThirdRateStoresNothingOfItsDay() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let good =
            #"<Cube time="2026-09-02"><Cube currency="USD" rate="1.1578"/><Cube currency="JPY" rate="184.78"/><Cube currency="CZK" rate="24.191"/>"#
        let bad = try edited(
            ninetyDays, replacing: good, with: good.replacingOccurrences(of: "24.191", with: "1.2.3"), in: dir,
            name: "half.xml")
        let run = await ecbrates(["import", bad.path, "--workers", "3", "--chunk-days", "3"], store: store)
        #expect(run.status == 65)
        #expect(run.err == "Error: \(bad.path):28:124: rate \"1.2.3\" for CZK on 2026-09-02 is not a decimal number\n")
        #expect(
            run.out
                == "\(bad.path): stopped by the error below after storing 20 whole days (2026-09-03..2026-09-30): 580 new, 0 corrected, 0 unchanged\n"
        )
        #expect(try storedRates(store) == fileRates(ninetyDays).filter { $0 > "2026-09-02 ~" })
    }

    /// A day the ECB cannot have published is refused where it stands: a weekend or TARGET
    /// holiday, a day before the first rates, a day in the future (which would otherwise become
    /// the store's "newest" day and open a hole of years).
    @Test(arguments: [
        ("2026-09-26", "is a Saturday: the ECB publishes no rates then"),
        ("2024-03-29", "is Good Friday: the ECB publishes no rates then"),
        ("1998-12-31", "is before 1999-01-04, the day of the ECB's first reference rates"),
        ("2099-07-22", "is in the future (today is "),
    ])
    func aDayTheECBCannotHavePublishedIsRefused(day: String, reason: String) async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let good = #"<Cube time="2026-09-30">"#
        let file = try edited(
            ninetyDays, replacing: good,
            with: #"<Cube time="\#(day)"><Cube currency="USD" rate="1.1"/></Cube>"# + "\n" + good,
            in: dir, name: "odd-day.xml")
        let run = await ecbrates(["import", file.path], store: store)
        #expect(run.status == 65)
        #expect(run.err.hasPrefix("Error: \(file.path):8:13: day \(day) \(reason)"), "\(run.err)")
        let validate = try CommandRun.process(["validate", file.path])
        #expect(validate.status == 65 && validate.err == run.err, "\(validate)")
        #expect(try storedRates(store).isEmpty)
    }

    @Test func aDryRunOfABadFileSaysWhatAnImportWouldHaveStoredAndStoresNothing() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let truncated = FixturePaths.broken.appendingPathComponent("truncated.xml")
        let run = await ecbrates(["import", truncated.path, "--dry-run"], store: store)
        #expect(run.status == 65)
        #expect(
            run.out
                == "\(truncated.path): stopped by the error below; a real import would have stored 1 whole day (2019-03-01) (dry run: nothing stored): 2 new, 0 corrected, 0 unchanged\n"
        )
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    /// A truncated file into a full store: the day cut short corrects nothing, the whole day
    /// before it does.
    @Test func aTruncatedDayCorrectsNothing() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        _ = await ecbrates(["import", history.path], store: store)
        let truncated = FixturePaths.broken.appendingPathComponent("truncated.xml")
        let run = await ecbrates(["import", truncated.path], store: store)
        #expect(run.status == 65)
        // 2019-03-01: JPY 127.35 in the history, 127.11 in the broken file (a whole day: corrected);
        // 2019-03-04: USD 1.1337 in the history, 1.1383 in the day cut short (never corrected).
        #expect(
            run.out
                == "\(truncated.path): stopped by the error below after storing 1 whole day (2019-03-01): 0 new, 1 corrected, 1 unchanged\n  corrected JPY on 2019-03-01: 127.35 → 127.11\n"
        )
        let stored = try storedRates(store)
        #expect(stored.contains("2019-03-04 USD 1.1337"))
        #expect(stored.contains("2019-03-01 JPY 127.11"))
    }

    @Test(arguments: ["object", "batch"])
    func theImportRunsAreRecordedWithTheirOutcome(method: String) async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        _ = await ecbrates(["import", daily.path, "--method", method], store: store)
        _ = await ecbrates(
            ["import", FixturePaths.broken.appendingPathComponent("rate-comma.xml").path, "--method", method],
            store: store)
        let rates = try RatesStore(url: store)
        let context = rates.container.newBackgroundContext()
        let runs = try context.performAndWait {
            try context.fetch(FetchRequest<ImportRun>(sortBy: [SortDescriptor(\.startedAt)])).map {
                "\($0.outcomeText) \($0.rates) \($0.inserted) \($0.errorMessage ?? "-") \($0.finishedAt != nil)"
            }
        }
        #expect(
            runs == [
                "succeeded 29 29 - true",
                "failed 2 2 \(FixturePaths.broken.appendingPathComponent("rate-comma.xml").path):9:52: rate \"1,2345\" for USD on 2019-03-04 is not a decimal number; stored before it: 1 whole day (2019-03-01) of \(FixturePaths.broken.appendingPathComponent("rate-comma.xml").path) true",
            ])
        // Each stored rate points at the run that stored it.
        let storedBy = try context.performAndWait {
            Dictionary(
                grouping: try context.fetch(FetchRequest<Eurofxrefhist>()), by: { $0.importRun?.outcomeText ?? "none" }
            ).mapValues(\.count)
        }
        #expect(storedBy == ["succeeded": 29, "failed": 2], "--method \(method)")
    }

    @Test func jsonOutputIsStable() async throws {
        let dir = TemporaryDirectory()
        let run = await ecbrates(["import", daily.path, "--format", "json"], store: dir.file("rates.sqlite"))
        let object = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let imports = try #require(object?["imports"] as? [[String: Any]])
        #expect(imports.count == 1)
        #expect(imports[0]["source"] as? String == daily.path)
        #expect(imports[0]["days"] as? Int == 1 && imports[0]["rates"] as? Int == 29 && imports[0]["new"] as? Int == 29)
        #expect(imports[0]["firstDay"] as? String == "2026-09-30")
        #expect(run.out.hasPrefix(#"{"imports":[{"source":""#))
    }
}

/// Exit codes and messages of the command as a process.
@Suite struct ImportExitCodeTests {
    @Test func exitCodesFollowSysexits() throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite").path
        let ok = try CommandRun.process(["import", "Fixtures/eurofxref-daily.xml", "--store", store])
        #expect(ok.status == 0, "\(ok)")
        let usage = try CommandRun.process(["import", "--workers", "0", "--store", store])
        #expect(usage.status == 64)
        #expect(
            usage.err.hasPrefix(
                "Error: The value '0' is invalid for '--workers <n>': expected a whole number of 1 or more\nUsage: ecbrates import "
            ))
        let bad = try CommandRun.process(["import", "Fixtures/broken/html-error-page.xml", "--store", store])
        #expect(bad.status == 65)
        #expect(
            bad.err
                == "Error: Fixtures/broken/html-error-page.xml:1:1: this is an HTML page, not an ECB rates document (expected <gesmes:Envelope>)\n"
        )
        let missing = try CommandRun.process(["import", "Fixtures/nonexistent.xml", "--store", store])
        #expect(missing.status == 66)
        #expect(missing.err == "Error: Fixtures/nonexistent.xml: no such file\n")
        let notAStore = dir.file("not-a-store.sqlite")
        try Data("hello".utf8).write(to: notAStore)
        let io = try CommandRun.process(["import", "Fixtures/eurofxref-daily.xml", "--store", notAStore.path])
        #expect(io.status == 74)
        #expect(
            io.err
                == "Error: \(notAStore.path) is not an ecbrates store: it is not an SQLite database; it was left untouched\n"
        )
        let network = try CommandRun.process(["import", "http://127.0.0.1:9/eurofxref-daily.xml", "--store", store])
        #expect(network.status == 75)
    }

    @Test func standardInputCanBeImported() throws {
        let dir = TemporaryDirectory()
        let run = try CommandRun.process(
            ["import", "-", "--store", dir.file("r.sqlite").path], input: try Data(contentsOf: FixturePaths.daily))
        #expect(run.status == 0, "\(run)")
        #expect(run.out.hasPrefix("-: 1 day 2026-09-30, 29 rates: 29 new"))
    }

    @Test func validateChecksWithoutAStore() throws {
        let good = try CommandRun.process([
            "validate", "Fixtures/eurofxref-daily.xml", "Fixtures/eurofxref-hist-90d.xml",
        ])
        #expect(good.status == 0)
        #expect(
            good.out == """
                Fixtures/eurofxref-daily.xml: ok, 1 day 2026-09-30, 29 rates, 29 currencies
                Fixtures/eurofxref-hist-90d.xml: ok, 64 days 2026-07-03..2026-09-30, 1856 rates, 29 currencies

                """)
        let bad = try CommandRun.process(["validate", "Fixtures/broken/day-twice.xml"])
        #expect(bad.status == 65)
        #expect(
            bad.err == "Error: Fixtures/broken/day-twice.xml:10:13: day 2019-03-01 appears twice (first at line 8)\n")
    }
}
