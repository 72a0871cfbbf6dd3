import ECBRates
import Foundation
import TestSupport
import Testing

/// What users of Frankfurter and currencyconverter reach for: several currencies at once, all
/// rates of a day, --base everywhere, grouped series, streamed JSON lines, --partial, --quiet,
/// errors as JSON, real CSV from status. Expected values were read from the fixture with
/// Python's decimal (means and cross rates to 20 significant digits).
@Suite struct PeerFeatureTests {
    func ask(_ arguments: [String], now: String = "2026-10-01T10:00:00Z") async throws -> CommandRun {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        return await ecbrates(arguments, store: store, environment: ["ECBRATES_NOW": now])
    }

    @Test(
        arguments: [
            (["rate", "USD,GBP", "--date", "2024-03-28"], "Rates per euro on 2024-03-28:\nUSD  1.0811\nGBP  0.8551\n"),
            (
                ["rate", "usd,gbp", "--date", "2024-03-30", "--format", "csv"],
                "currency,base,rate,day,asked,reason\nUSD,EUR,1.0811,2024-03-28,2024-03-30,a Saturday\nGBP,EUR,0.8551,2024-03-28,2024-03-30,a Saturday\n"
            ),
            (
                ["latest", "--date", "2024-03-28", "--base", "USD", "--currencies", "EUR,GBP"],
                "Rates per USD on 2024-03-28:\nEUR  0.924984\nGBP  0.790954\n"
            ),
            (
                ["series", "USD", "--from", "2024-01-01", "--to", "2024-03-31", "--group", "month", "--format", "csv"],
                "month,days,USD\n2024-01-01,22,1.0905136363636363636\n2024-02-01,21,1.0794714285714285714\n2024-03-01,20,1.08722\n"
            ),
            (
                ["series", "USD", "--from", "2024-01-01", "--to", "2024-03-31", "--group", "month"],
                "month       days      USD\n2024-01-01    22  1.09051\n2024-02-01    21  1.07947\n2024-03-01    20  1.08722\n"
            ),
            (
                [
                    "series", "USD", "--from", "2024-01-01", "--to", "2024-03-31", "--group", "month", "--statistic",
                    "max", "--format", "csv",
                ],
                "month,days,USD\n2024-01-01,22,1.0987\n2024-02-01,21,1.0883\n2024-03-01,20,1.0939\n"
            ),
            (
                [
                    "series", "USD", "--from", "2024-03-25", "--to", "2024-04-05", "--group", "week", "--statistic",
                    "first", "--format", "csv",
                ],
                "week,days,USD\n2024-03-25,4,1.0835\n2024-04-01,4,1.0749\n"
            ),
            (
                ["series", "USD,JPY", "--from", "2024-03-27", "--to", "2024-04-02", "--format", "ndjson"],
                #"{"date":"2024-03-27","USD":1.0816,"JPY":163.52}"# + "\n"
                    + #"{"date":"2024-03-28","USD":1.0811,"JPY":163.45}"# + "\n"
                    + #"{"date":"2024-04-02","USD":1.0749,"JPY":163.01}"# + "\n"
            ),
            (
                ["series", "USD", "--from", "2024-03-27", "--to", "2024-04-02", "--base", "GBP", "--format", "csv"],
                "date,USD\n2024-03-27,1.2610763921276000373\n2024-03-28,1.2642965735001754181\n2024-04-02,1.2570459595368962694\n"
            ),
            (
                ["export", "--from", "2026-09-30", "--currencies", "USD,JPY", "--format", "ndjson"],
                #"{"date":"2026-09-30","currency":"JPY","rate":178.27}"# + "\n"
                    + #"{"date":"2026-09-30","currency":"USD","rate":1.1355}"# + "\n"
            ),
            (
                ["export", "--from", "2024-03-28", "--to", "2024-03-28", "--currencies", "EUR,USD", "--base", "GBP"],
                "date,currency,rate\n2024-03-28,EUR,1.1694538650450239738\n2024-03-28,USD,1.2642965735001754181\n"
            ),
        ] as [([String], String)])
    func answersMatchTheFile(arguments: [String], expected: String) async throws {
        let run = try await ask(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.out == expected)
    }

    /// Against another base, "every currency" includes the euro.
    @Test func allRatesAgainstABaseIncludeTheEuro() async throws {
        let run = try await ask(["latest", "--base", "CHF"])
        #expect(run.status == 0, "\(run)")
        #expect(run.out.contains("\nEUR   1.05507\n"), "1 / 0.9478 to 6 digits:\n\(run.out)")
        #expect(!run.out.contains("\nCHF "))
    }

    /// A range with the default end on a store that lacks published days warns, as `rate` does.
    @Test func aRangeToTheNewestStoredDayWarnsWhenTheStoreIsBehind() async throws {
        let run = try await ask(["series", "USD", "--from", "2026-09-28"], now: "2026-10-06T18:00:00Z")
        #expect(run.status == 0, "\(run)")
        #expect(
            run.err
                == "warning: the store's newest day is 2026-09-30, but the rates of 4 business days since (from 2026-10-01) are out; run 'ecbrates import'\n"
        )
    }

    @Test func rateWithoutACurrencyGivesEveryRateOfTheDay() async throws {
        let run = try await ask(["rate", "--date", "2024-03-30"])
        #expect(run.status == 0, "\(run)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.first == "Rates per euro on 2024-03-28 (asked 2024-03-30, a Saturday):")
        #expect(lines.count == 1 + 30, "the 30 currencies of 2024-03-28")
        #expect(lines.contains("USD    1.0811"))
        #expect(lines.contains("IDR  17157.87"))
    }

    @Test func statsTakeABase() async throws {
        let run = try await ask([
            "stats", "USD", "--from", "2024-03-27", "--to", "2024-04-02", "--base", "GBP", "--format", "csv",
        ])
        #expect(run.status == 0, "\(run)")
        // The mean of the three cross rates above, and the change from the first to the last.
        #expect(
            run.out
                == "currency,base,from,to,days,first,first_day,last,last_day,min,min_day,max,max_day,mean,change_percent\n"
                + "USD,GBP,2024-03-27,2024-04-02,3,1.2610763921276000373,2024-03-27,1.2570459595368962694,2024-04-02,"
                + "1.2570459595368962694,2024-04-02,1.2642965735001754181,2024-03-28,1.2608063083882239083,-0.32\n")
    }

    /// Days whose rates are out but not stored make a range an error, as they make a day one;
    /// --partial answers from what is stored, and says what is missing.
    @Test func aRangePastTheStoredDaysIsAnErrorUnlessPartial() async throws {
        let later = "2026-10-05T18:00:00Z"  // 2026-10-01, -02 and -05 are out; the store ends on 09-30
        let refused = try await ask(["series", "USD", "--from", "2026-09-28", "--to", "2026-10-05"], now: later)
        #expect(refused.status == 65)
        #expect(
            refused.err
                == "Error: the store lacks the rates of 3 business days (2026-10-01..2026-10-05) between 2026-09-28 and 2026-10-05, "
                + "which the ECB has published; run 'ecbrates import' (or 'ecbrates import hist' for days inside the store), or pass --partial to accept what is stored\n"
        )
        let stats = try await ask(["stats", "USD", "--from", "2026-09-28", "--to", "2026-10-05"], now: later)
        #expect(stats.status == 65)
        let export = try await ask(["export", "--from", "2026-09-28", "--to", "2026-10-05"], now: later)
        #expect(export.status == 65 && export.out.isEmpty, "nothing is written before the check")

        let partial = try await ask(
            ["series", "USD", "--from", "2026-09-28", "--to", "2026-10-05", "--partial", "--format", "json"], now: later
        )
        #expect(partial.status == 0, "\(partial)")
        #expect(
            partial.out.contains(#""complete":false,"missing":["2026-10-01","2026-10-02","2026-10-05"]"#),
            "\(partial.out)")
        #expect(
            partial.err
                == "warning: the answer is incomplete: the store lacks the rates of 3 business days (2026-10-01..2026-10-05), which the ECB has published\n"
        )
        // Before the rates of 2026-10-01 are out, the same range is complete.
        let early = try await ask(["series", "USD", "--from", "2026-09-28", "--to", "2026-10-05", "--format", "json"])
        #expect(early.status == 0 && early.out.contains(#""complete":true"#), "\(early)")
    }

    @Test func errorsAreJSONUnderAJSONFormat() async throws {
        let run = try await ask(["rate", "USD", "--date", "2024-03-30", "--fallback", "none", "--format", "json"])
        #expect(run.status == 65)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == #"{"error":"no USD rate on 2024-03-30 (a Saturday); --fallback previous, next, nearest or interpolate gives one from a day near it","code":"no-rate-on-day","exitStatus":65}"#
                + "\n")
        let usage = try await ask(["series", "USX", "--format", "ndjson"])
        #expect(usage.status == 64)
        #expect(
            usage.err == #"{"error":"Unknown currency 'USX'. Did you mean 'USD'?","code":"unknown-currency","exitStatus":64}"#
                + "\n")
    }

    @Test func quietPrintsNothingOnSuccessAndStillPrintsErrors() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let now = ["ECBRATES_NOW": "2026-10-01T10:00:00Z"]
        let imported = await ecbrates(
            ["import", FixturePaths.ninetyDays.path, "--quiet"], store: store, environment: now)
        #expect(imported.status == 0 && imported.out.isEmpty && imported.err.isEmpty, "\(imported)")
        let fresh = await ecbrates(["status", "--max-age-days", "0", "--quiet"], store: store, environment: now)
        #expect(fresh.status == 0 && fresh.out.isEmpty && fresh.err.isEmpty, "\(fresh)")
        let stale = await ecbrates(
            ["status", "--max-age-days", "0", "--quiet"], store: store,
            environment: ["ECBRATES_NOW": "2026-10-06T10:00:00Z"])
        #expect(stale.status == 1 && stale.out.isEmpty, "\(stale)")
        #expect(stale.err == "the store is 5 days behind, more than --max-age-days 0\n")
        let exported = await ecbrates(
            ["export", "--quiet", "--output", dir.file("out.csv").path], store: store, environment: now)
        #expect(exported.status == 0 && exported.err.isEmpty, "\(exported)")
        // The data asked for is never silenced: only reports and notes are.
        let toStandardOutput = await ecbrates(
            ["export", "--quiet", "--from", "2026-09-30", "--currencies", "USD"], store: store, environment: now)
        #expect(toStandardOutput.out == "date,currency,rate\n2026-09-30,USD,1.1355\n", "\(toStandardOutput)")
        let failed = await ecbrates(
            ["import", dir.file("missing.xml").path, "--quiet"], store: store, environment: now)
        #expect(failed.status == 66 && failed.err.hasPrefix("Error: "), "\(failed)")
    }

    @Test func statusCSVIsOneHeaderAndOneRow() async throws {
        let run = try await ask(["status", "--format", "csv"])
        #expect(run.status == 0, "\(run)")
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(
            lines[0]
                == "store,store_source,first_day,last_day,days,rates,currencies,up_to_date,due_day,missing_business_days,holes,age_days,"
                + "history_complete,history_should_begin,history_missing_business_days,"
                + "last_import_source,last_import_outcome,last_import_started_at,last_import_finished_at,last_import_rates,last_import_new,"
                + "last_import_corrected,last_import_error")
        let fields = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.count == 23)
        #expect(fields[1...8] == ["option", "1999-01-04", "2026-09-30", "7104", "221064", "41", "true", "2026-09-30"])
        #expect(fields[12...14] == ["true", "1999-01-04", "0"])
    }
}
