import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// The query commands, checked against values read by hand from the fixture.
@Suite struct QueryTests {
    /// 2026-10-01 at 10:00 UTC: the store (newest day 2026-09-30) is up to date until 16:00 CET.
    static let now = ["ECBRATES_NOW": "2026-10-01T10:00:00Z"]

    func ask(_ arguments: [String], now: [String: String] = QueryTests.now) async throws -> CommandRun {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        return await ecbrates(arguments, store: store, environment: now)
    }

    @Test(
        arguments: [
            (["rate", "USD", "--date", "2024-03-28"], "USD 1.0811 on 2024-03-28"),
            (["rate", "usd", "--date", "2020-03-13"], "USD 1.1104 on 2020-03-13"),
            (["rate", "USD"], "USD 1.1355 on 2026-09-30"),
            (["rate", "USD", "--date", "2024-03-30"], "USD 1.0811 on 2024-03-28 (asked 2024-03-30, a Saturday)"),
            (["rate", "USD", "--date", "2024-03-31"], "USD 1.0811 on 2024-03-28 (asked 2024-03-31, a Sunday)"),
            (["rate", "USD", "--date", "2024-03-29"], "USD 1.0811 on 2024-03-28 (asked 2024-03-29, Good Friday)"),
            (["rate", "USD", "--date", "2024-04-01"], "USD 1.0811 on 2024-03-28 (asked 2024-04-01, Easter Monday)"),
            (["rate", "USD", "--date", "2024-05-01"], "USD 1.0718 on 2024-04-30 (asked 2024-05-01, Labour Day)"),
            (["rate", "EUR", "--date", "2024-03-28"], "EUR 1 on 2024-03-28"),
            (["rate", "USD", "--date", "2024-03-28", "--base", "GBP"], "USD 1.26430 per GBP on 2024-03-28"),
            (["rate", "EUR", "--date", "2024-03-28", "--base", "USD"], "EUR 0.924984 per USD on 2024-03-28"),
            (
                ["rate", "USD", "--date", "2024-03-29", "--fallback", "next"],
                "USD 1.0749 on 2024-04-02 (asked 2024-03-29, Good Friday)"
            ),
            (
                ["rate", "USD", "--date", "2024-03-30", "--fallback", "nearest"],
                "USD 1.0811 on 2024-03-28 (asked 2024-03-30, a Saturday)"
            ),
            (
                ["rate", "USD", "--date", "2024-04-01", "--fallback", "nearest"],
                "USD 1.0749 on 2024-04-02 (asked 2024-04-01, Easter Monday)"
            ),
            (
                ["rate", "USD", "--date", "2024-03-30", "--fallback", "interpolate"],
                "USD 1.07862 on 2024-03-30, interpolated between 2024-03-28 and 2024-04-02 (a Saturday)"
            ),
            (
                ["rate", "USD", "--date", "2026-10-01"],
                "USD 1.1355 on 2026-09-30 (asked 2026-10-01, its rates are not out yet)"
            ),
            (
                ["convert", "100", "USD", "JPY", "--date", "2026-09-30"],
                "100 USD = 15700 JPY on 2026-09-30 (1 USD = 156.997 JPY)"
            ),
            (
                ["convert", "100", "EUR", "JPY", "--date", "2024-03-28"],
                "100 EUR = 16345 JPY on 2024-03-28 (1 EUR = 163.45 JPY)"
            ),
            (
                ["convert", "100", "JPY", "USD", "--date", "2020-03-13"],
                "100 JPY = 0.93 USD on 2020-03-13 (1 JPY = 0.00932248 USD)"
            ),
            (
                ["convert", "100", "JPY", "USD", "--date", "2020-03-13", "--precision", "4"],
                "100 JPY = 0.9322 USD on 2020-03-13 (1 JPY = 0.00932248 USD)"
            ),
            (["rate", "USD", "--base", "IDR", "--date", "2024-03-28"], "USD 0.0000630090 per IDR on 2024-03-28"),
            (
                ["convert", "-5", "USD", "EUR", "--date", "2024-03-28"],
                "-5 USD = -4.62 EUR on 2024-03-28 (1 USD = 0.924984 EUR)"
            ),
            (
                ["convert", "100", "USD", "JPY", "--date", "2024-03-30", "--fallback", "interpolate"],
                "100 USD = 15137 JPY on 2024-03-30 (1 USD = 151.373 JPY; interpolated between 2024-03-28 and 2024-04-02; asked 2024-03-30, a Saturday)"
            ),
            (
                ["convert", "1000000000000", "IDR", "USD", "--date", "2024-03-28"],
                "1000000000000 IDR = 63008986.55 USD on 2024-03-28 (1 IDR = 0.0000630090 USD)"
            ),
            (["rate", "HRK", "--date", "2022-12-31"], "HRK 7.5365 on 2022-12-30 (asked 2022-12-31, a Saturday)"),
            // The currencies the euro replaced: from the day they joined, their fixed conversion
            // rate (Regulation (EC) 1103/97), whatever the fallback; before it, the ECB's rates.
            (
                ["rate", "CYP", "--date", "2009-05-05"],
                "CYP 0.585274 on 2009-05-05 (fixed at 0.585274 per euro since 2008-01-01)"
            ),
            (["rate", "CYP"], "CYP 0.585274 on 2026-09-30 (fixed at 0.585274 per euro since 2008-01-01)"),
            (
                ["rate", "HRK", "--date", "2023-01-01"],
                "HRK 7.5345 on 2023-01-01 (fixed at 7.53450 per euro since 2023-01-01)"
            ),
            (
                ["rate", "BGN", "--date", "2026-01-03", "--fallback", "nearest"],
                "BGN 1.95583 on 2026-01-03 (fixed at 1.95583 per euro since 2026-01-01)"
            ),
            (
                ["convert", "10", "HRK", "EUR", "--date", "2023-01-02"],
                "10 HRK = 1.33 EUR on 2023-01-02 (1 HRK = 0.132723 EUR; fixed at 7.53450 per euro since 2023-01-01)"
            ),
            (
                ["rate", "USD", "--date", "1999-01-01", "--fallback", "next"],
                "USD 1.1789 on 1999-01-04 (asked 1999-01-01, New Year's Day)"
            ),
            (
                ["rate", "USD", "--date", "1998-12-30", "--fallback", "nearest"],
                "USD 1.1789 on 1999-01-04 (asked 1998-12-30, before the ECB's first reference rates, of 1999-01-04)"
            ),
            (
                ["convert", "12.50", "USD", "EUR", "--date", "2024-03-30"],
                "12.50 USD = 11.56 EUR on 2024-03-28 (1 USD = 0.924984 EUR; asked 2024-03-30, a Saturday)"
            ),
            // Blanks around a listed code (spaces, a tab) are dropped; case does not matter.
            (
                ["rate", " usd ,\tjpy ", "--date", "2024-03-28"],
                "Rates per euro on 2024-03-28:\nUSD  1.0811\nJPY  163.45"
            ),
        ] as [([String], String)])
    func answersMatchTheFile(arguments: [String], expected: String) async throws {
        let run = try await ask(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.out == expected + "\n")
    }

    @Test(
        arguments: [
            (
                ["rate", "USD", "--date", "2024-03-30", "--fallback", "none"], 65,
                "no USD rate on 2024-03-30 (a Saturday); --fallback previous, next, nearest or interpolate gives one from a day near it"
            ),
            (
                ["rate", "ISK", "--date", "2012-06-01"], 65,
                "ISK has no rate on 2012-06-01: the ECB did not quote the Icelandic króna from 2008-12-10 to 2018-01-31; ISK was last quoted on 2008-12-09, and next on 2018-02-01"
            ),
            (
                ["rate", "RUB", "--date", "2023-01-02"], 65,
                "RUB has no rate on 2023-01-02: the ECB suspended its rouble rate from 2022-03-02; RUB was last quoted on 2022-03-01, and not since"
            ),
            (
                ["rate", "ISK", "--date", "2008-12-12"], 65,
                "ISK has no rate on 2008-12-12: the ECB did not quote the Icelandic króna from 2008-12-10 to 2018-01-31; ISK was last quoted on 2008-12-09, and next on 2018-02-01"
            ),
            (
                ["rate", "RUB", "--date", "2022-03-05"], 65,
                "RUB has no rate on 2022-03-05: the ECB suspended its rouble rate from 2022-03-02; RUB was last quoted on 2022-03-01, and not since"
            ),
            (
                ["rate", "USD", "--date", "2026-10-01", "--fallback", "interpolate"], 65,
                "no USD rate after 2026-10-01 is out yet (the newest is of 2026-09-30), so there is nothing to take the next rate from or interpolate towards; --fallback previous takes the newest"
            ),
            (
                ["rate", "USD", "--date", "2026-10-01", "--fallback", "next"], 65,
                "no USD rate after 2026-10-01 is out yet (the newest is of 2026-09-30), so there is nothing to take the next rate from or interpolate towards; --fallback previous takes the newest"
            ),
            (
                ["rate", "USD", "--date", "1998-12-31"], 65,
                "no rates before 1999-01-04: the store holds 1999-01-04..2026-09-30 (asked 1998-12-31)"
            ),
            (
                ["rate", "USD", "--date", "2026-10-02"], 65,
                "2026-10-02 has not come yet; the newest rates are of 2026-09-30"
            ),
        ] as [([String], Int32, String)])
    func unanswerableQuestionsSayWhy(arguments: [String], status: Int32, message: String) async throws {
        let run = try await ask(arguments)
        #expect(run.status == status)
        #expect(run.err == "Error: \(message)\n")
    }

    @Test func aSaturdayAfterTheNewestFridayGetsFridaysRate() async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        _ = await ecbrates(
            ["import", FixturePaths.history.path, "--from", "2026-09-01", "--to", "2026-09-25"], store: store)
        let sunday = ["ECBRATES_NOW": "2026-09-27T12:00:00Z"]
        let run = await ecbrates(["rate", "USD", "--date", "2026-09-26"], store: store, environment: sunday)
        #expect(run.out == "USD 1.1403 on 2026-09-25 (asked 2026-09-26, a Saturday)\n")
        let monday = await ecbrates(
            ["rate", "USD", "--date", "2026-09-28"], store: store, environment: ["ECBRATES_NOW": "2026-09-28T18:00:00Z"]
        )
        #expect(monday.status == 65)
        #expect(
            monday.err
                == "Error: the store is out of date: its newest day is 2026-09-25, but the rates of 2026-09-28 (a business day) should be out; run 'ecbrates import' before asking for 2026-09-28\n"
        )
    }

    /// A fallback that looks forward from a weekend after the newest stored Friday finds no
    /// later publication in the store. Before the Monday's rates are out that is "not out yet";
    /// once they are, the store is stale, and it says so with the code `rate` gives for a day
    /// after a missing one (issue 35, 1), on the command line and over /api/ and MCP alike.
    @Test(arguments: ["next", "interpolate"])
    func aForwardFallbackOnAStaleStoreSaysTheStoreIsStale(fallback: String) async throws {
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        _ = await ecbrates(
            ["import", FixturePaths.history.path, "--from", "2026-09-01", "--to", "2026-09-25"], store: store)
        let stale = ["ECBRATES_NOW": "2026-10-20T12:00:00Z"]
        for command in [
            ["convert", "1000", "USD", "EUR", "--date", "2026-09-26"], ["rate", "USD", "--date", "2026-09-26"],
        ] {
            let run = await ecbrates(command + ["--fallback", fallback], store: store, environment: stale)
            #expect(run.status == 65, "\(command): \(run)")
            #expect(
                run.err
                    == "Error: the store is out of date: its newest day is 2026-09-25, but the rates of 2026-09-28 (a business day) should be out; run 'ecbrates import' before asking for 2026-09-26\n",
                "\(command)")
            let json = await ecbrates(
                command + ["--fallback", fallback, "--format", "json"], store: store, environment: stale)
            #expect(json.err.contains(#""code":"stale-store""#), "\(json.err)")
        }
        // Sunday: Monday's rates are not out yet, and that is what it says.
        let sunday = await ecbrates(
            ["rate", "USD", "--date", "2026-09-26", "--fallback", fallback], store: store,
            environment: ["ECBRATES_NOW": "2026-09-27T12:00:00Z"])
        #expect(sunday.err.contains("no USD rate after 2026-09-26 is out yet"), "\(sunday)")
    }

    @Test func aStaleStoreRefusesToAnswerForALaterDay() async throws {
        // 2026-10-05 (a Monday) at noon: Thursday 1 and Friday 2 October's rates are out.
        let run = try await ask(["rate", "USD", "--date", "2026-10-04"], now: ["ECBRATES_NOW": "2026-10-05T12:00:00Z"])
        #expect(run.status == 65)
        #expect(
            run.err
                == "Error: the store is out of date: its newest day is 2026-09-30, but the rates of 2026-10-01 (a business day) should be out; run 'ecbrates import' before asking for 2026-10-04\n"
        )
        let newest = try await ask(["rate", "USD"], now: ["ECBRATES_NOW": "2026-10-05T12:00:00Z"])
        #expect(newest.out == "USD 1.1355 on 2026-09-30\n")
        #expect(
            newest.err
                == "warning: the store's newest day is 2026-09-30, but the rates of 2 business days since (from 2026-10-01) are out; run 'ecbrates import'\n"
        )
    }

    @Test func anUnknownCurrencySuggestsNearMatches() async throws {
        let run = try await ask(["rate", "USX"])
        #expect(run.status == 64)
        #expect(
            run.err.hasPrefix("Error: Unknown currency 'USX'. Did you mean 'USD'?\nUsage: ecbrates rate [<currencies>]")
        )
        let swapped = try await ask(["convert", "1", "UDS", "EUR"])
        #expect(swapped.err.hasPrefix("Error: Unknown currency 'UDS'. Did you mean 'USD'?\n"))
    }

    @Test func malformedDaysAndAmountsAreUsageErrors() async throws {
        let day = try await ask(["rate", "USD", "--date", "2024-02-30"])
        #expect(day.status == 64)
        #expect(
            day.err.hasPrefix(
                "Error: The value '2024-02-30' is invalid for '--date <day>': expected a day that exists: February 2024 has 29 days (01 to 29)\n"))
        let amount = try await ask(["convert", "1,5", "USD", "JPY"])
        #expect(amount.status == 64)
        #expect(
            amount.err.hasPrefix(
                "Error: The value '1,5' is invalid for '<amount>': expected a number like 100, 12.50 or -3.10\n"))
    }

    @Test func jsonAndCSVAreStable() async throws {
        let json = try await ask(["rate", "USD", "--date", "2024-03-30", "--format", "json"])
        #expect(
            json.out
                == #"{"currency":"USD","base":"EUR","rate":1.0811,"day":"2024-03-28","asked":"2024-03-30","reason":"a Saturday","interpolatedBetween":null,"legs":[{"currency":"USD","perEuro":1.0811,"day":"2024-03-28","published":[{"day":"2024-03-28","perEuro":1.0811}]}]}"#
                + "\n")
        let csv = try await ask(["rate", "USD", "--date", "2024-03-30", "--format", "csv"])
        #expect(csv.out == "currency,base,rate,day,asked,reason\nUSD,EUR,1.0811,2024-03-28,2024-03-30,a Saturday\n")
        let convert = try await ask(["convert", "100", "USD", "JPY", "--date", "2026-09-30", "--format", "json"])
        #expect(
            convert.out
                == #"{"amount":100,"from":"USD","to":"JPY","result":15700,"rate":156.99691765741963893,"day":"2026-09-30","asked":null,"reason":null,"interpolatedBetween":null,"legs":[{"currency":"JPY","perEuro":178.27,"day":"2026-09-30","published":[{"day":"2026-09-30","perEuro":178.27}]},{"currency":"USD","perEuro":1.1355,"day":"2026-09-30","published":[{"day":"2026-09-30","perEuro":1.1355}]}]}"#
                + "\n")
        let series = try await ask([
            "series", "USD,JPY", "--from", "2024-03-27", "--to", "2024-04-02", "--format", "csv",
        ])
        #expect(
            series.out == "date,USD,JPY\n2024-03-27,1.0816,163.52\n2024-03-28,1.0811,163.45\n2024-04-02,1.0749,163.01\n"
        )
        let seriesJSON = try await ask([
            "series", "USD", "--from", "2024-03-28", "--to", "2024-03-29", "--format", "json",
        ])
        #expect(
            seriesJSON.out
                == #"{"base":"EUR","currencies":["USD"],"group":null,"statistic":null,"complete":true,"missing":[],"rows":[{"date":"2024-03-28","USD":1.0811}]}"#
                + "\n")
    }

    @Test func seriesInTextHasOneRowPerDayAndGapsForMissingRates() async throws {
        let run = try await ask(["series", "USD,CYP", "--from", "2007-12-28", "--to", "2008-01-03"])
        #expect(
            run.out == """
                date           USD       CYP
                2007-12-28  1.4692  0.585274
                2007-12-31  1.4721  0.585274
                2008-01-02  1.4688         -
                2008-01-03  1.4753         -

                """)
    }

    @Test func statsMatchTheFile() async throws {
        let run = try await ask(["stats", "USD", "--from", "2024-01-01", "--to", "2024-12-31", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        // Worked out here from the file itself.
        let usd = try fileRates(FixturePaths.history).filter { $0.hasPrefix("2024-") && $0.contains(" USD ") }
            .map { (day: String($0.prefix(10)), rate: Decimal(string: String($0.split(separator: " ")[2]))!) }
        let minimum = usd.min { $0.rate < $1.rate }!, maximum = usd.max { $0.rate < $1.rate }!
        let mean = usd.reduce(Decimal(0)) { $0 + $1.rate } / Decimal(usd.count)
        #expect(object["days"] as? Int == usd.count)
        #expect((object["min"] as? [String: Any])?["day"] as? String == minimum.day)
        #expect((object["max"] as? [String: Any])?["day"] as? String == maximum.day)
        #expect(run.out.contains(#""first":{"day":"2024-01-02","rate":1.0956}"#))
        #expect(run.out.contains(#""last":{"day":"2024-12-31","rate":1.0389}"#))
        #expect(run.out.contains(#""max":{"day":"2024-09-30","rate":1.1196}"#))
        #expect(abs(NSDecimalNumber(decimal: mean).doubleValue - (object["mean"] as? Double ?? 0)) < 0.000001)
        #expect(run.out.contains(#""changePercent":-5.18"#))  // (1.0389 - 1.0956) / 1.0956 = -5.175 %
    }

    @Test func currenciesListEachCodeWithItsDaysFromTheFile() async throws {
        let run = try await ask(["currencies", "--format", "csv"])
        var expected: [String: (first: String, last: String, count: Int)] = [:]
        for line in try fileRates(FixturePaths.history) {
            let parts = line.split(separator: " ")
            let day = String(parts[0]), code = String(parts[1])
            let old = expected[code]
            expected[code] = (min(old?.first ?? day, day), max(old?.last ?? day, day), (old?.count ?? 0) + 1)
        }
        let lines = expected.keys.sorted().map {
            "\($0),\(expected[$0]!.first),\(expected[$0]!.last),\(expected[$0]!.count)"
        }
        // The names (ISO 4217's, by hand here) aside, each line is the file's.
        let withoutNames = run.out.split(separator: "\n").map {
            var fields = $0.split(separator: ",", omittingEmptySubsequences: false)
            fields.remove(at: 1)
            return fields.joined(separator: ",")
        }
        #expect(
            withoutNames.joined(separator: "\n") + "\n" == "code,first_day,last_day,rates\n"
                + lines.joined(separator: "\n") + "\n")
        #expect(run.out.contains("\nTRL,Turkish Lira (old),1999-01-04,2004-12-31,"))
        #expect(run.out.contains("\nUSD,United States Dollar,1999-01-04,"))
        #expect(run.out.contains("\nHRK,Croatian Kuna,") && run.out.contains(",2022-12-30,"))
    }

    @Test func latestShowsTheNewestDay() async throws {
        let run = try await ask(["latest", "--currencies", "USD,JPY,EUR"])
        #expect(run.out == "Rates per euro on 2026-09-30:\nUSD  1.1355\nJPY  178.27\nEUR       1\n")
    }

    @Test func theWideExportEqualsTheHistoryValueForValue() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let output = dir.file("wide.csv")
        let run = await ecbrates(
            ["export", "--layout", "wide", "--output", output.path], store: store, environment: Self.now)
        #expect(run.status == 0, "\(run)")
        #expect(run.err == "wrote 7104 lines (wide layout) to \(output.path)\n")
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        // The header of the ECB's own eurofxref-hist.csv, as the ECB publishes it.
        #expect(
            lines[0]
                == "Date,USD,JPY,BGN,CYP,CZK,DKK,EEK,GBP,HUF,LTL,LVL,MTL,PLN,ROL,RON,SEK,SIT,SKK,CHF,ISK,NOK,HRK,RUB,TRL,TRY,AUD,BRL,CAD,CNY,HKD,IDR,ILS,INR,KRW,MXN,MYR,NZD,PHP,SGD,THB,ZAR,"
        )
        var exported: [String] = []
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for (code, value) in zip(header.dropFirst(), fields.dropFirst()) where !code.isEmpty && value != "N/A" {
                exported.append("\(fields[0]) \(code) \(value)")
            }
        }
        #expect(exported.sorted() == (try fileRates(FixturePaths.history)))
        #expect(lines[1].hasPrefix("2026-09-30,"), "newest first, as the ECB's file")
        let long = await ecbrates(
            ["export", "--from", "2024-03-28", "--to", "2024-03-28", "--currencies", "USD,GBP"], store: store)
        #expect(long.out == "date,currency,rate\n2024-03-28,GBP,0.8551\n2024-03-28,USD,1.0811\n")
    }

    /// Under --format json a warning is in the answer (`warnings`, with a stable code) as well
    /// as on standard error; an answer without warnings has no such key.
    @Test func jsonAnswersCarryTheirWarnings() async throws {
        let later = ["ECBRATES_NOW": "2026-10-06T15:00:00Z"]  // 1, 2, 5 and 6 October are out
        for arguments in [["rate", "USD"], ["convert", "100", "USD", "JPY"], ["latest"], ["stats", "USD"]] {
            let run = try await ask(arguments + ["--format", "json"], now: later)
            #expect(run.status == 0, "\(run)")
            let message =
                "the store's newest day is 2026-09-30, but the rates of 4 business days since (from 2026-10-01) are out; run 'ecbrates import'"
            #expect(run.err == "warning: \(message)\n", "\(arguments)")
            let answer = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
            let warnings = answer?["warnings"] as? [[String: String]]
            #expect(warnings == [["code": "stale-store", "message": message]], "\(arguments): \(run.out)")
        }
        let fresh = try await ask(["rate", "USD", "--format", "json"])
        #expect(fresh.err.isEmpty && !fresh.out.contains("\"warnings\""), "\(fresh)")
    }

    @Test func statusSaysWhetherTheStoreIsUpToDateAndMaxAgeExitsOne() async throws {
        let upToDate = try await ask(["status"])
        #expect(upToDate.status == 0)
        #expect(
            upToDate.out.contains(
                "days:         7104 (1999-01-04..2026-09-30)\nrates:        221064\ncurrencies:   41\nfreshness:    up to date (rates of 2026-09-30 are the newest due)\n"
                    + "history:      complete from 1999-01-04 (the ECB's first reference rates)\nlast import:  succeeded"
            ))
        let later = ["ECBRATES_NOW": "2026-10-06T15:00:00Z"]  // Tuesday, 17:00 CEST: 1, 2, 5 and 6 October are out
        let stale = try await ask(["status", "--max-age-days", "3"], now: later)
        #expect(stale.status == 1)
        #expect(
            stale.out.contains(
                "freshness:    out of date: 4 business days missing, from 2026-10-01 to 2026-10-06 (6 days behind)"))
        #expect(stale.err == "the store is 6 days behind, more than --max-age-days 3\n")
        let tolerant = try await ask(["status", "--max-age-days", "6", "--format", "json"], now: later)
        #expect(tolerant.status == 0)
        #expect(
            tolerant.out.contains(
                #""upToDate":false,"dueDay":"2026-10-06","missingBusinessDays":["2026-10-01","2026-10-02","2026-10-05","2026-10-06"],"holes":[],"ageDays":6"#
            ))
    }

    @Test func aQueryBeforeAnyImportSaysWhatToDo() async {
        let dir = TemporaryDirectory()
        let run = await ecbrates(["rate", "USD"], store: dir.file("none.sqlite"))
        #expect(run.status == 66)
        #expect(run.err == "Error: no store at \(dir.file("none.sqlite").path); run 'ecbrates import' first\n")
    }
}

/// The TARGET calendar.
@Suite struct TargetCalendarTests {
    @Test func easterAndTheClosingDaysFollowTheCalendar() {
        #expect(TargetCalendar.easterSunday(in: 2024) == CalendarDayLiteral("2024-03-31"))
        #expect(TargetCalendar.easterSunday(in: 2025) == CalendarDayLiteral("2025-04-20"))
        #expect(TargetCalendar.easterSunday(in: 2000) == CalendarDayLiteral("2000-04-23"))
        #expect(TargetCalendar.closure(on: CalendarDayLiteral("2025-04-18")) == "Good Friday")
        #expect(TargetCalendar.closure(on: CalendarDayLiteral("2025-12-26")) == "St Stephen's Day")
        #expect(TargetCalendar.closure(on: CalendarDayLiteral("2025-12-24")) == nil)
    }

    /// The calendar and the history agree both ways: every published day is a business day, and
    /// every weekday without rates is a closing day (with the early years' fewer closing days).
    @Test func theCalendarAndTheHistoryAgree() throws {
        let days = Set(try fileRates(FixturePaths.history).map { String($0.prefix(10)) })
        let closed = days.filter { !TargetCalendar.isBusinessDay(CalendarDayLiteral($0)) }
        #expect(closed.isEmpty, "published on closing days: \(closed.sorted())")
        var unexplained: [String] = []
        var day = CalendarDayLiteral("1999-01-04")
        while day <= CalendarDayLiteral("2026-09-30") {
            if !day.weekday.isWeekend && !days.contains(day.description) && TargetCalendar.isBusinessDay(day) {
                unexplained.append(day.description)
            }
            day = day.adding(days: 1)
        }
        #expect(unexplained.isEmpty, "weekdays without rates that are not closing days: \(unexplained)")
        #expect(TargetCalendar.closure(on: CalendarDayLiteral("1999-04-02")) == nil, "Good Friday 1999 had rates")
        #expect(
            TargetCalendar.closure(on: CalendarDayLiteral("2001-12-31"))
                == "New Year's Eve (a TARGET closing day until 2001)")
        #expect(TargetCalendar.closure(on: CalendarDayLiteral("2002-12-31")) == nil)
    }

    @Test func ratesAreDueAtFourInFrankfurt() {
        let winter = ISO8601DateFormatter().date(from: "2026-01-15T15:00:00Z")!  // 16:00 CET
        #expect(TargetCalendar.latestDueDay(at: winter) == CalendarDayLiteral("2026-01-15"))
        #expect(TargetCalendar.latestDueDay(at: winter.addingTimeInterval(-60)) == CalendarDayLiteral("2026-01-14"))
        let summer = ISO8601DateFormatter().date(from: "2026-07-15T14:00:00Z")!  // 16:00 CEST
        #expect(TargetCalendar.latestDueDay(at: summer) == CalendarDayLiteral("2026-07-15"))
        let sunday = ISO8601DateFormatter().date(from: "2026-07-19T20:00:00Z")!
        #expect(TargetCalendar.latestDueDay(at: sunday) == CalendarDayLiteral("2026-07-17"))
    }
}

func CalendarDayLiteral(_ text: String) -> CalendarDay { CalendarDay(text)! }
