import Foundation
import TestSupport
import Testing

/// Yearly and quarterly averages (`series --group year|quarter`), each row with its count of
/// publications, against Python's fractions over the ECB's file: seeded currencies and years.
struct AveragesTests {
    @Test func yearlyAndQuarterlyMeansAndTheirDaysAgreeWithTheFile() async throws {
        let seed =
            ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...99_999)
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        var lines: [String] = []
        for _ in 0..<8 {
            let code = ["USD", "JPY", "GBP", "CHF", "SEK", "ISK", "HRK", "CYP"].randomElement(using: &random)!
            let year = Int.random(in: 1999...2025, using: &random)
            let period = Bool.random(using: &random) ? "year" : "quarter"
            let run = try CommandRun.process([
                "series", code, "--from", "\(year)-01-01", "--to", "\(year)-12-31", "--group", period, "--format",
                "csv",
                "--partial", "--store", store.path,
            ])
            guard run.status == 0 else {
                // A currency not quoted that year is refused by name, never answered empty.
                #expect(run.err.contains(code), "seed \(seed): \(run.err)")
                continue
            }
            for row in run.out.split(separator: "\n").dropFirst() where !row.hasSuffix(",") {
                lines.append("\(code),\(period),\(row)")
            }
        }
        let oracle = """
            import sys, xml.parsers.expat
            from decimal import Decimal
            from fractions import Fraction
            rates, current = {}, None
            def start(name, attributes):
                global current
                if "time" in attributes: current = attributes["time"]
                elif "currency" in attributes:
                    rates.setdefault(attributes["currency"], {})[current] = Fraction(Decimal(attributes["rate"]))
            parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
            parser.StartElementHandler = start
            parser.ParseFile(open(sys.argv[1], "rb"))
            wrong = 0
            checked = 0
            for line in open(sys.argv[2]).read().split():
                checked += 1
                code, period, start_day, days, mean = line.split(",")
                year, month = int(start_day[:4]), int(start_day[5:7])
                months = range(month, month + 3) if period == "quarter" else range(1, 13)
                chosen = [v for d, v in rates[code].items() if int(d[:4]) == year and int(d[5:7]) in months]
                exact = sum(chosen) / len(chosen)
                error = abs(Fraction(Decimal(mean)) - exact) / exact
                if len(chosen) != int(days) or error > Fraction(1, 10**19):
                    wrong += 1
                    print("wrong:", line, len(chosen), float(exact))
            print("checked", checked, "wrong", wrong)
            """
        let file = directory.file("averages.csv")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try SpawnedProcess.run(PythonTools.system, ["-c", oracle, FixturePaths.history.path, file.path])
        #expect(run.status == 0 && run.out.hasSuffix("wrong 0\n"), "seed \(seed): \(run.out) \(run.err)")
        #expect(lines.count >= 4, "seed \(seed): too few rows checked: \(lines)")
    }

    /// Several currencies in one grouped series: each figure says of how many days it was made
    /// when a currency lacks some of the period's (the rouble's 2022 mean is of the 42 days
    /// before the ECB suspended it, not of the year's 257 publications).
    @Test func aFigureOfFewerDaysThanItsPeriodSaysSo() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let arguments = ["series", "RUB,USD", "--from", "2022-01-01", "--to", "2022-12-31", "--group", "year"]
        let text = try CommandRun.process(arguments + ["--store", store.path])
        #expect(
            text.out == """
                year        days           RUB      USD
                2022-01-01   257  88.3971 (42)  1.05305
                (n): a figure of n days, where the currency has no rate on the others

                """, "\(text)")
        let csv = try CommandRun.process(arguments + ["--format", "csv", "--store", store.path])
        #expect(csv.out.hasPrefix("year,days,RUB,USD,RUB_days,USD_days\n2022-01-01,257,"), "\(csv.out)")
        #expect(csv.out.hasSuffix(",42,257\n"), "\(csv.out)")
        let json = try CommandRun.process(arguments + ["--format", "json", "--store", store.path])
        #expect(json.out.contains(#""currencyDays":{"RUB":42,"USD":257}"#), "\(json.out)")
    }
}
