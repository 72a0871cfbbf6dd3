import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore
import TestSupport
import Testing

/// Conversions past 128 bits: amounts of up to 28 digits (the most an amount may have), up to
/// 20 decimal places. Each is
/// exact or refused (`too-many-digits`, naming the most places that fit), never wrong digits:
/// Python's `fractions` judges every result, and every "at most N places" is asked again and
/// must then be answered exactly. `ECBRATES_SEED` reruns one seed.
struct HugeConversionTests {
    @Test func eachResultIsExactOrRefusedAndTheAdvisedPlacesAreAnswered() async throws {
        let seed =
            ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...999_999)
        let directory = TemporaryDirectory()
        let store = try RatesStore(url: try await PreparedStore.copy(into: directory), readOnly: true)
        let view = store.viewContext
        let codes = ["USD", "JPY", "IDR", "KRW", "GBP", "HUF", "EUR", "ISK"]
        let (lines, refused) = try await view.perform { () throws -> ([String], Int) in
            var random = SeededGenerator(seed: seed)
            let queries = RateQueries(context: view, now: { Date(timeIntervalSince1970: 1_790_848_800) })
            var lines: [String] = []
            var refused = 0
            for _ in 0..<400 {
                let digits = Int.random(in: 10...DecimalMath.amountDigits, using: &random)
                var text = String(Int.random(in: 1...9, using: &random))
                for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &random)) }
                let scale = Int.random(in: 0...min(6, digits - 1), using: &random)
                if scale > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -scale)) }
                let amount = Decimal(string: text)!
                let from = codes.randomElement(using: &random)!, to = codes.randomElement(using: &random)!
                let places = Int.random(in: 0...ConversionAnswer.maximumPrecision, using: &random)
                var asked = places
                do {
                    let answer: ConversionAnswer
                    do {
                        answer = try queries.convert(
                            amount, from: CurrencyCode(from)!, to: CurrencyCode(to)!, on: CalendarDay("2024-03-28"),
                            precision: places)
                    } catch QueryError.tooManyDigits(_, _, let most) {
                        refused += 1
                        guard let most else { continue }
                        asked = most
                        answer = try queries.convert(
                            amount, from: CurrencyCode(from)!, to: CurrencyCode(to)!, on: CalendarDay("2024-03-28"),
                            precision: most)
                    }
                    lines.append(
                        [text, from, to, answer.rate.day.description, "\(asked)", DecimalText.format(answer.result)]
                            .joined(separator: "\t"))
                }
            }
            return (lines, refused)
        }
        let oracle = """
            import sys, xml.parsers.expat
            from decimal import Decimal
            from fractions import Fraction
            days, current = {}, None
            def start(name, attributes):
                global current
                if "time" in attributes:
                    current = attributes["time"]; days[current] = {"EUR": Fraction(1)}
                elif "currency" in attributes:
                    days[current][attributes["currency"]] = Fraction(Decimal(attributes["rate"]))
            parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
            parser.StartElementHandler = start
            parser.ParseFile(open(sys.argv[1], "rb"))
            wrong = 0
            for line in open(sys.argv[2]):
                amount, source, target, day, places, result = line.rstrip("\\n").split("\\t")
                exact = Fraction(Decimal(amount)) * days[day][target] / days[day][source]
                scaled = exact * 10 ** int(places)
                units = (abs(scaled.numerator) * 2 + scaled.denominator) // (2 * scaled.denominator)
                expected = Fraction(units if scaled >= 0 else -units, 10 ** int(places))
                if Fraction(Decimal(result)) != expected:
                    wrong += 1
                    print("wrong:", line.strip(), "expected", float(expected))
            print("checked", sum(1 for _ in open(sys.argv[2])), "wrong", wrong)
            """
        let file = directory.file("huge.tsv")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try SpawnedProcess.run(
            PythonTools.system, ["-c", oracle, FixturePaths.history.path, file.path], timeout: 120)
        #expect(run.status == 0 && run.out.hasSuffix("wrong 0\n"), "seed \(seed): \(run.out.suffix(2_000)) \(run.err)")
        // Both kinds occur: some need more than 38 digits, most do not.
        #expect(refused > 20 && lines.count > 200, "seed \(seed): \(refused) refused, \(lines.count) answered")
    }
}
