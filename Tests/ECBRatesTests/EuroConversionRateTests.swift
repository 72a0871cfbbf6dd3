import Foundation
import TestSupport
import Testing

/// The euro's irrevocable conversion rates of the currencies it replaced, with the rules of
/// Regulation (EC) 1103/97 (articles 4 and 5): rates used as published (six significant
/// figures, never inverted), legacy-to-legacy amounts through the euro with the euro amount
/// rounded to three decimals, the final amount rounded half up to the currency's sub-unit.
/// Checked against a calculator the test writes from the regulation (Python's fractions and
/// decimal, its own table of rates), on seeded random amounts, pairs and days.
@Suite struct EuroConversionRateTests {
    static let now = ["ECBRATES_NOW": "2026-10-01T12:00:00Z"]

    func ask(_ arguments: [String]) async throws -> CommandRun {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        return await ecbrates(arguments, store: store, environment: Self.now)
    }

    /// The issue's examples, word for word.
    @Test func theIssuesExamples() async throws {
        let rate = try await ask(["rate", "GRD", "--date", "2005-01-01"])
        #expect(rate.out == "GRD 340.75 on 2005-01-01 (fixed at 340.750 per euro since 2001-01-01)\n", "\(rate)")
        // 1000 / 1.95583 = 511.2918…, 511.292 EUR; × 6.55957 = 3353.8554…, 3353.86 FRF.
        let convert = try await ask(["convert", "1000", "DEM", "FRF"])
        #expect(
            convert.out
                == "1000 DEM = 3353.86 FRF on 2026-09-30 (1 DEM = 3.35385 FRF; through 511.292 EUR, rounded to three decimals as Regulation (EC) 1103/97 has it; FRF fixed at 6.55957 per euro since 1999-01-01, DEM fixed at 1.95583 per euro since 1999-01-01)\n",
            "\(convert)")
        // Before a currency's fixing day, its ECB rates stand (HRK until 2022-12-30) ...
        let kuna = try await ask(["rate", "HRK", "--date", "2022-06-01"])
        #expect(kuna.out == "HRK 7.5345 on 2022-06-01\n", "\(kuna)")
        // ... and a currency the ECB never quoted has no rate before it.
        let drachma = try await ask(["rate", "GRD", "--date", "2000-06-01"])
        #expect(drachma.status == 65)
        #expect(
            drachma.err
                == "Error: GRD has no rate on 2000-06-01: its conversion rate to the euro applies from 2001-01-01, and the ECB's reference rates here do not include it before\n"
        )
        // A replaced currency as the base: 1.0811 / 1.95583 USD per mark.
        let base = try await ask(["rate", "USD", "--base", "DEM", "--date", "2024-03-28"])
        #expect(
            base.out == "USD 0.552758 per DEM on 2024-03-28 (fixed at 1.95583 per euro since 1999-01-01)\n", "\(base)")
        let json = try await ask(["rate", "GRD", "--date", "2005-01-01", "--format", "json"])
        #expect(json.out.contains(#""fixed":{"perEuro":340.750,"since":"2001-01-01"}"#), "\(json.out)")
    }

    /// Seeded random conversions between legacy currencies, the euro and currencies the ECB
    /// quotes, each compared with the regulation's arithmetic done by Python.
    @Test func conversionsFollowTheRegulation() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? 2026_11_25
        var generator = SeededGenerator(seed: seed)
        let legacy = [
            "BEF", "DEM", "ESP", "FRF", "IEP", "ITL", "LUF", "NLG", "ATS", "PTE", "FIM", "GRD", "SIT", "CYP", "MTL",
            "SKK", "EEK", "LVL", "LTL", "HRK", "BGN",
        ]
        let others = ["EUR", "USD", "JPY"]
        var rows = ["date,amount,from,to"]
        for _ in 0..<300 {
            let from = legacy.randomElement(using: &generator)!
            let to =
                Bool.random(using: &generator)
                ? legacy.randomElement(using: &generator)! : others.randomElement(using: &generator)!
            let units = Int.random(in: -5_000_000...50_000_000, using: &generator)
            let sign = units < 0 ? "-" : ""
            rows.append(
                "2026-09-30,\(sign)\(abs(units) / 100).\(String(format: "%02d", abs(units) % 100)),\(from),\(to)")
        }
        let dir = TemporaryDirectory()
        let input = dir.file("in.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let store = try await PreparedStore.copy(into: dir)
        let run = await ecbrates(["convert", "--input", input.path], store: store, environment: Self.now)
        #expect(run.status == 0, "seed \(seed): \(run)")
        let output = dir.file("out.csv")
        try run.out.write(to: output, atomically: true, encoding: .utf8)
        let calculator = """
            import csv, sys, xml.parsers.expat
            from decimal import Decimal
            from fractions import Fraction
            # Council Regulations (EC) 2866/98, 1478/2000 and successors: units per euro; places
            # of the final amount (the sub-unit; none in use for BEF ESP GRD ITL LUF PTE).
            FIXED = {"BEF": ("40.3399", 0), "DEM": ("1.95583", 2), "ESP": ("166.386", 0), "FRF": ("6.55957", 2),
                     "IEP": ("0.787564", 2), "ITL": ("1936.27", 0), "LUF": ("40.3399", 0), "NLG": ("2.20371", 2),
                     "ATS": ("13.7603", 2), "PTE": ("200.482", 0), "FIM": ("5.94573", 2), "GRD": ("340.750", 0),
                     "SIT": ("239.640", 2), "CYP": ("0.585274", 2), "MTL": ("0.429300", 2), "SKK": ("30.1260", 2),
                     "EEK": ("15.6466", 2), "LVL": ("0.702804", 2), "LTL": ("3.45280", 2), "HRK": ("7.53450", 2),
                     "BGN": ("1.95583", 2)}
            PLACES = {"JPY": 0}
            ecb = {}
            def start(name, attributes):
                if attributes.get("time") == "2026-09-30": ecb["on"] = True
                elif "time" in attributes: ecb["on"] = False
                elif ecb.get("on") and "currency" in attributes: ecb[attributes["currency"]] = Fraction(Decimal(attributes["rate"]))
            parser = xml.parsers.expat.ParserCreate()
            parser.StartElementHandler = start
            parser.ParseFile(open(sys.argv[1], "rb"))
            def half_up(value, places):
                # Half up, away from zero, on the exact fraction.
                sign = -1 if value < 0 else 1
                scaled = abs(value) * 10 ** places
                whole = scaled.numerator // scaled.denominator
                if scaled - whole >= Fraction(1, 2): whole += 1
                return Fraction(sign * whole, 10 ** places)
            def per_euro(code):
                return Fraction(Decimal(FIXED[code][0])) if code in FIXED else (Fraction(1) if code == "EUR" else ecb[code])
            wrong = checked = 0
            for row in csv.DictReader(open(sys.argv[2])):
                amount, source, target = Fraction(Decimal(row["amount"])), row["from"], row["to"]
                places = FIXED[target][1] if target in FIXED else PLACES.get(target, 2)
                if source in FIXED and target in FIXED:
                    euro = half_up(amount / per_euro(source), 3)          # article 4(4): to three decimals
                    expected = half_up(euro * per_euro(target), places)  # article 5
                else:
                    expected = half_up(amount / per_euro(source) * per_euro(target), places)
                checked += 1
                if Fraction(Decimal(row["result"])) != expected:
                    wrong += 1
                    print("wrong:", row, "expected", float(expected))
            print("checked", checked, "wrong", wrong)
            """
        let check = try SpawnedProcess.run(
            PythonTools.system, ["-c", calculator, FixturePaths.history.path, output.path])
        #expect(
            check.status == 0 && check.out.hasSuffix("checked 300 wrong 0\n"), "seed \(seed): \(check.out) \(check.err)"
        )
    }
}
