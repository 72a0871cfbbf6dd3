import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// A question's fields are its typed `@Field` properties: each takes exactly its own value from
/// an input (never another field's, never silently the default), and the fields are listed as
/// declared, each name once.
struct FieldTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2026_11_29

    /// Every set of fields a door reads: the questions, a batch conversion's settings, an export.
    static let sets: [any FieldSet.Type] = Questions.builtIn + [ConvertBatch.self, ExportRequest.self]

    /// A good text for `field`, at random.
    static func text(for field: QuestionField, _ generator: inout SeededGenerator) -> String {
        let codes = ["USD", "JPY", "GBP", "CHF", "TRY", "ISK", "usd", "Nok"]
        switch field.kind {
        case .currency: return codes.randomElement(using: &generator)!
        case .currencies:
            return codes.dropLast(2).shuffled(using: &generator).prefix(Int.random(in: 1...4, using: &generator))
                .joined(separator: ",")
        case .day, .moment:
            let day = CalendarDay("1999-01-04")!.adding(days: Int.random(in: 0..<9_000, using: &generator))
            return "\(day)"
        case .amount:
            return "\(Int.random(in: -5_000...5_000, using: &generator)).\(Int.random(in: 0...99, using: &generator))"
        case .count(let minimum, let maximum): return "\(Int.random(in: minimum...maximum, using: &generator))"
        case .choice(let words): return words.randomElement(using: &generator)!
        case .flag: return Bool.random(using: &generator) ? "true" : "false"
        }
    }

    /// The values a built set holds, by field name, as `Mirror` finds its fields.
    static func held(_ value: some FieldSet) -> [String: FieldValue?] {
        var held: [String: FieldValue?] = [:]
        for child in Mirror(reflecting: value).children {
            guard let declared = child.value as? any FieldDeclaration else { continue }
            held[declared.field.name] = declared.fieldValue
        }
        return held
    }

    /// Sets `T` from 100 seeded inputs (a random subset of its fields, each a random good value):
    /// every field holds the value given for it, or its default when none was.
    static func check<T: FieldSet>(_: T.Type, _ generator: inout SeededGenerator) throws -> (built: Int, refused: Int) {
        let defaults = held(T())
        var (built, refused) = (0, 0)
        for round in 0..<100 {
            var input = QuestionInput()
            for field in T.fields where Bool.random(using: &generator) {
                input.set(field.name, try field.parse(text(for: field, &generator)))
            }
            let value: T
            do { value = try T(input) } catch {
                refused += 1  // fields that disagree (a range backwards, a statistic without a group)
                continue
            }
            built += 1
            let holds = held(value)
            for field in T.fields {
                let expected = input.values[field.name] ?? defaults[field.name] ?? nil
                #expect(
                    holds[field.name] == expected,
                    "\(T.self).\(field.name) holds \(String(describing: holds[field.name])), given \(String(describing: input.values[field.name])) (seed \(seed), round \(round))"
                )
            }
        }
        return (built, refused)
    }

    @Test func eachFieldTakesItsOwnValueFromAnInput() throws {
        var generator = SeededGenerator(seed: Self.seed)
        var total = 0
        for set in Self.sets {
            let (built, refused) = try Self.check(set, &generator)
            total += built
            #expect(built > refused, "\(set): \(built) built, \(refused) refused (seed \(Self.seed))")
        }
        #expect(total >= 700)
    }

    @Test func fieldsAreListedAsDeclaredEachNameOnce() {
        for set in Self.sets {
            let names = set.fields.flatMap { [$0.name] + $0.aliases }
            #expect(Set(names).count == names.count, "\(set): \(names)")
        }
        #expect(RateQuestion.fields.map(\.name) == ["currencies", "date", "base", "fallback", "as_of"])
        #expect(ConvertBatch.fields.map(\.name) == ["fallback", "precision", "delimiter", "number_format"])
        #expect(CurrenciesQuestion.fields.isEmpty)
    }

    /// A name the input holds that no field of the set has is not read by any field: the door
    /// refuses it before (``QuestionInput/reading(_:parameters:)``), and a question made of such
    /// an input is the default one.
    @Test func aValueUnderAnotherNameIsNotTaken() throws {
        var input = QuestionInput()
        input.set("dates", .day(CalendarDay("2024-03-28")!))
        input.set("Base", .currency("USD"))
        let question = try RateQuestion(input)
        #expect(question.date == nil && question.base == "EUR")
        #expect(throws: QuestionRefusal.self) {
            try RateQuestion(parameters: [(name: "dates", value: "2024-03-28")])
        }
    }
}
