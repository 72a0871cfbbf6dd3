import ECBRates
import Foundation
import TestSupport
import Testing

/// `convert --input`: every row of a CSV converted on its own day, as `convert` converts one.
@Suite struct BatchConversionTests {
    static let now = ["ECBRATES_NOW": "2026-10-01T10:00:00Z"]

    func batch(_ input: String, _ extra: [String] = []) async throws -> CommandRun {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let file = dir.file("in.csv")
        try input.write(to: file, atomically: true, encoding: .utf8)
        return await ecbrates(["convert", "--input", file.path] + extra, store: store, environment: Self.now)
    }

    /// Values from the file with Python's decimal: 100 USD → JPY on 2024-03-28 is
    /// 100 × 163.45 / 1.0811 = 15118.86…; on Saturday 2024-03-30, Friday's rates.
    @Test func rowsGainRateDayAndResult() async throws {
        let run = try await batch(
            """
            invoice,date,amount,from,to
            "A-1, ACME",2024-03-28,100,USD,JPY
            A-2,2024-03-30,12.50,USD,EUR
            A-3,2024-03-28,-5,EUR,USD\r
            A-4, 2024-03-28 ,1000000000000,IDR,USD

            """)
        #expect(run.status == 0, "\(run)")
        #expect(
            run.out == """
                invoice,date,amount,from,to,rate,rate_day,result
                "A-1, ACME",2024-03-28,100,USD,JPY,151.18860419942651004,2024-03-28,15119
                A-2,2024-03-30,12.50,USD,EUR,0.92498381278327629266,2024-03-28,11.56
                A-3,2024-03-28,-5,EUR,USD,1.0811,2024-03-28,-5.41
                A-4, 2024-03-28 ,1000000000000,IDR,USD,0.000063008986546698395547,2024-03-28,63008986.55

                """)
    }

    @Test func aBadRowStopsTheBatchWithItsLineUnlessSkipped() async throws {
        let input =
            "date,amount,from,to\n2024-03-28,100,USD,JPY\n2024-02-30,1,USD,JPY\n2023-06-01,5,RUB,EUR\n2024-03-28,x,USD,JPY\n2024-03-28,2,USD,GBP\n"
        let stopped = try await batch(input)
        #expect(stopped.status == 65)
        #expect(
            stopped.err.hasSuffix("in.csv:3: date \"2024-02-30\" is not a day; expected a day that exists: February 2024 has 29 days (01 to 29)\n"), "\(stopped.err)"
        )
        let skipped = try await batch(input, ["--skip-bad-rows"])
        #expect(skipped.status == 0, "\(skipped)")
        // Every row, in order: the output lines up with the input, bad rows with their reason.
        let out = skipped.out.split(separator: "\n").map(String.init)
        try #require(out.count == 6, "the header and the five rows: \(skipped.out)")
        #expect(out[0] == "date,amount,from,to,rate,rate_day,result,error")
        #expect(out[1] == "2024-03-28,100,USD,JPY,151.18860419942651004,2024-03-28,15119,")
        #expect(out[2] == #"2024-02-30,1,USD,JPY,,,,"line 3: date ""2024-02-30"" is not a day; expected a day that exists: February 2024 has 29 days (01 to 29)""#)
        #expect(
            out[3]
                == #"2023-06-01,5,RUB,EUR,,,,"line 4: RUB has no rate on 2023-06-01: the ECB suspended its rouble rate from 2022-03-02; RUB was last quoted on 2022-03-01, and not since""#
        )
        #expect(
            out[4]
                == #"2024-03-28,x,USD,JPY,,,,"line 5: amount ""x"" (column 2) is not a number like 100, 12.50 or -3.10 (of at most 28 digits)""#
        )
        #expect(out[5].hasPrefix("2024-03-28,2,USD,GBP,0.79") && out[5].hasSuffix(","), "\(out[5])")
        let lines = skipped.err.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(skipped.err)")
        #expect(lines[0].hasSuffix("in.csv:3: date \"2024-02-30\" is not a day; expected a day that exists: February 2024 has 29 days (01 to 29)"))
        #expect(
            lines[1].hasSuffix(
                "in.csv:4: RUB has no rate on 2023-06-01: the ECB suspended its rouble rate from 2022-03-02; RUB was last quoted on 2022-03-01, and not since"
            ))
        #expect(
            lines[2].hasSuffix("in.csv:5: amount \"x\" (column 2) is not a number like 100, 12.50 or -3.10 (of at most 28 digits)")
        )
        #expect(
            lines[3] == "warning: 3 bad rows not converted, each kept with its reason in the error column; 2 converted")
    }

    @Test(
        arguments: [
            (
                "day,amount,from,to\n2024-03-28,1,USD,JPY\n",
                "in.csv:1: the header lacks a date column; expected date, amount, from and to (in any order), separated by commas, semicolons or tabs"
            ),
            (
                "date,amount,from,to,rate\n2024-03-28,1,USD,JPY,2\n",
                "in.csv:1: the header already has a rate column, which the output adds; rename it"
            ),
            ("date,amount,from,to,date\n2024-03-28,1,USD,JPY,x\n", "in.csv:1: the header names the date column twice"),
        ] as [(String, String)])
    func aHeaderWithoutTheColumnsOrWithTheOutputsIsRefused(input: String, message: String) async throws {
        let run = try await batch(input)
        #expect(run.status == 65)
        #expect(run.out.isEmpty)
        #expect(run.err.hasSuffix(message + "\n"), "\(run.err)")
    }

    /// Excel's "CSV UTF-8" begins with a byte-order mark: it is not part of the first column's name.
    @Test func aByteOrderMarkIsNotPartOfTheHeader() async throws {
        let run = try await batch("\u{FEFF}date,amount,from,to\r\n2024-03-28,100,USD,JPY\r\n")
        #expect(run.status == 0, "\(run)")
        #expect(
            run.out
                == "date,amount,from,to,rate,rate_day,result\n2024-03-28,100,USD,JPY,151.18860419942651004,2024-03-28,15119\n"
        )
    }

    /// Seeded random rows (every currency, days anywhere, every fallback), converted as a batch,
    /// judged by the independent calculator like single conversions.
    @Test(arguments: RateFallback.allCases)
    func everyRowAgreesWithTheIndependentCalculator(fallback: RateFallback) async throws {
        let seed = UInt64(Date().timeIntervalSince1970) &+ UInt64(fallback.hashValue & 0xFFFF)
        var random = SeededGenerator(seed: seed)
        var input = "date,amount,from,to\n"
        var rows: [(String, String, String, String)] = []
        for _ in 0..<600 {
            let day = CalendarDayText.random(using: &random)
            let amount = ConversionDifferentialTests.randomAmount(using: &random)
            let from = ConversionDifferentialTests.currencies.randomElement(using: &random)!
            let to = ConversionDifferentialTests.currencies.randomElement(using: &random)!
            let amountText = "\(amount)"
            rows.append((day, amountText, from, to))
            input += "\(day),\(amountText),\(from),\(to)\n"
        }
        let run = try await batch(input, ["--skip-bad-rows", "--fallback", fallback.rawValue])
        #expect(run.status == 0, "\(run.err.prefix(500))")
        // Good rows as the oracle's answers, skipped rows as errors of the kind the message names.
        var answers = ""
        // Every row is in the output, in order; a bad one has no rate and its reason last.
        let output = run.out.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(output.count == rows.count, "every input row is in the output")
        for (row, fields) in zip(rows, output) {
            let prefix = "\(row.1)\t\(row.2)\t\(row.3)\t\(row.0)\t\(fallback.rawValue)\t"
            #expect(Array(fields.prefix(4)) == [row.0, row.1, row.2, row.3], "\(fields)")
            if !fields[4].isEmpty {
                answers += prefix + "ok\t\(fields[6])\t\(fields[4])\t\(fields[5])\n"
            } else {
                answers += prefix + "error\tany\n"
            }
        }
        let dir = TemporaryDirectory()
        try answers.write(to: dir.file("answers.tsv"), atomically: true, encoding: .utf8)
        let judged = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", FixturePaths.root.appendingPathComponent("scripts/rate_oracle.py").path,
                FixturePaths.history.path, dir.file("answers.tsv").path, "--rate-digits", "20",
            ])
        // A skipped row's kind is not in the batch's output: only whether it failed is judged.
        #expect(
            judged.status == 0 && judged.out.hasSuffix("rate_oracle: 600 cases, 0 disagreements\n"),
            "seed \(seed): \(judged.out.prefix(2_000))")
    }
}

/// Random days for batch rows: anywhere from before the first publication to the day after
/// the newest.
enum CalendarDayText {
    static func random(using random: inout SeededGenerator) -> String {
        let first = 10_588, last = 20_727  // 1998-12-28 and 2026-10-01, days since 1970
        let days = Int.random(in: first...last, using: &random)
        let date = Date(timeIntervalSince1970: Double(days) * 86_400)
        return date.formatted(.iso8601.year().month().day())
    }
}
