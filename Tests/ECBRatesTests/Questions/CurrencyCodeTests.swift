import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// A currency code is parsed once, at the door, into a ``CurrencyCode``, and carried inward:
/// the rule is the ISO form (three letters, either case), and a question asks the store about
/// each code on each day once.
struct CurrencyCodeTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2026_11_29

    /// The oracle, written apart from the type: three Unicode scalars, each an ASCII letter.
    static func oracle(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 3, scalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return nil }
        return String(String.UnicodeScalarView(scalars.map { Unicode.Scalar($0.value & ~0x20)! }))
    }

    @Test func aCodeIsThreeLettersInEitherCaseAndNothingElse() {
        var generator = SeededGenerator(seed: Self.seed)
        // Letters, and what upper-cases into letters (ß → SS, ﬀ → FF, ı → I), and near misses.
        let pieces = [
            "U", "s", "D", "j", "P", "y", "ß", "ﬀ", "ı", "İ", "é", " ", "1", "-", "", "Ａ", "\u{0301}", "z", "@", "[",
        ]
        for round in 0..<5_000 {
            let text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            let expected = Self.oracle(text)
            #expect(
                CurrencyCode(text)?.text == expected,
                "seed \(Self.seed), round \(round): \(text.debugDescription) should be \(expected ?? "refused")")
            // The field's rule is the type's: a door accepts exactly these.
            let field = QuestionField(name: "currency", kind: .currency, help: "")
            let parsed: FieldValue? = try? field.parse(text)
            #expect(parsed == expected.map { .currency(CurrencyCode($0)!) }, "seed \(Self.seed), round \(round)")
        }
    }

    @Test func aCodeIsItsTextInJSON() throws {
        let codes: [CurrencyCode] = ["USD", "jpy"]
        let data = try JSONEncoder().encode(codes)
        #expect(String(decoding: data, as: UTF8.self) == #"["USD","JPY"]"#)
        #expect(try JSONDecoder().decode([CurrencyCode].self, from: Data(#"["chf"]"#.utf8)) == ["CHF"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CurrencyCode.self, from: Data(#""US""#.utf8)) }
    }

    /// The SQL a question runs (`MANAGEDSTORE_SQL_DEBUG=1`) names each code on each day once:
    /// no statement about a code is run twice for one question, over seeded questions whose days
    /// fall on weekends, holidays, days a currency was not quoted, and on unknown codes.
    @Test func aQuestionAsksTheStoreAboutACodeOnce() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        var generator = SeededGenerator(seed: Self.seed)
        let codes = ["USD", "JPY", "ISK", "TRY", "RUB", "CYP", "EUR", "XAU", "GBP"]
        let fallbacks = ["previous", "next", "nearest", "interpolate", "none"]
        var statements = 0
        for round in 0..<30 {
            let day = CalendarDay("1999-01-01")!.adding(days: Int.random(in: 0..<10_100, using: &generator))
            let (from, to) = (codes.randomElement(using: &generator)!, codes.randomElement(using: &generator)!)
            let fallback = fallbacks.randomElement(using: &generator)!
            let arguments =
                Bool.random(using: &generator)
                ? ["convert", "100", from, to, "--date", "\(day)", "--fallback", fallback]
                : ["rate", from, "--base", to, "--date", "\(day)", "--fallback", fallback]
            let run = try CommandRun.process(
                arguments + ["--store", store.path], environment: ["MANAGEDSTORE_SQL_DEBUG": "1"])
            let lines = run.err.split(separator: "\n").filter { $0.hasPrefix("ManagedStore: sql: ") }
            let aboutCodes = lines.filter { line in [from, to].contains { line.contains("'\($0)'") } }
            statements += aboutCodes.count
            var seen = Set<Substring>()
            for line in aboutCodes {
                #expect(
                    seen.insert(line).inserted,
                    "seed \(Self.seed), round \(round): ecbrates \(arguments.joined(separator: " ")) ran twice: \(line)"
                )
            }
        }
        // The statements were seen at all (the debug output is there to be checked).
        #expect(statements > 30, "seed \(Self.seed): only \(statements) statements about the codes")
    }
}
