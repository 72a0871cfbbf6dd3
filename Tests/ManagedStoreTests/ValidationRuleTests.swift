import Foundation
import ManagedStore
import TestSupport
import Testing

final class Manuscript: ManagedObject {
    @Attribute var title: String
    @Attribute var pages: Int32
    @Attribute var price: Decimal?
    @Attribute var due: Date?
}

/// The model's validation rules (Core Data's minimum and maximum value and length, regular
/// expression and validation predicates), checked by a save against an independent oracle
/// (Python's `re.fullmatch`, UTF-16 lengths and `decimal`), every failure reported at once
/// with Core Data's codes.
@MainActor @Suite struct ValidationRuleTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2026_11_30

    static func model(titleRules: [ValidationRule] = [], pricesRules: [ValidationRule] = []) -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Manuscript", managedObjectClass: Manuscript.self,
                attributes: [
                    AttributeDescription(name: "title", type: .string, validationRules: titleRules),
                    AttributeDescription(
                        name: "pages", type: .integer32,
                        validationRules: [
                            .minimumValue(.integer(1)), .maximumValue(.integer(1_000)),
                            .predicate(#Predicate<Int32> { $0 % 2 == 0 }, warning: "a sheet has two pages"),
                        ]),
                    AttributeDescription(name: "price", type: .decimal, isOptional: true, validationRules: pricesRules),
                    AttributeDescription(
                        name: "due", type: .date, isOptional: true,
                        validationRules: [
                            .minimumValue(.date(Date(timeIntervalSinceReferenceDate: 0))),
                            .maximumValue(.date(Date(timeIntervalSinceReferenceDate: 1_000_000_000))),
                        ]),
                ])
        ])
    }

    static let pieces = ["a", "b", "c", "ab", "1", "٣", "é", "e\u{301}", "😀", "👍🏽", "ß", " ", "-"]

    /// A regular expression that ICU and Python read alike.
    static func pattern(using generator: inout SeededGenerator, depth: Int = 0) -> String {
        let atoms = ["a", "b", "c", ".", "\\d", "[ab]", "[^a]", "é", "😀", "-"]
        var text = ""
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            var atom =
                depth < 2 && Int.random(in: 0..<4, using: &generator) == 0
                ? "(\(pattern(using: &generator, depth: depth + 1)))" : atoms.randomElement(using: &generator)!
            atom += ["", "", "*", "+", "?", "{1,2}"].randomElement(using: &generator)!
            text += atom
        }
        if depth == 0 && Bool.random(using: &generator) { text += "|" + pattern(using: &generator, depth: 1) }
        return text
    }

    struct Case: Codable {
        var title: String
        var pattern: String
        var minimumLength: Int
        var maximumLength: Int
        var price: String
        var minimumPrice: String
    }

    /// What Python says each case breaks, by Core Data's codes.
    static func oracle(_ cases: [Case]) throws -> [[Int]] {
        let script = """
            import json, re, sys
            from decimal import Decimal
            out = []
            for c in json.load(sys.stdin):
                codes = []
                n = len(c['title'].encode('utf-16-le')) // 2
                if n < c['minimumLength']: codes.append(1670)
                if n > c['maximumLength']: codes.append(1660)
                if re.fullmatch(c['pattern'], c['title']) is None: codes.append(1680)
                if Decimal(c['price']) < Decimal(c['minimumPrice']): codes.append(1620)
                out.append(sorted(codes))
            json.dump(out, sys.stdout)
            """
        let output = try PythonTools.run(script, input: try JSONEncoder().encode(cases))
        return try JSONDecoder().decode([[Int]].self, from: output)
    }

    @Test func aSaveRefusesWhatTheOracleRefusesWithCoreDatasCodesAllAtOnce() throws {
        var generator = SeededGenerator(seed: Self.seed)
        var cases: [Case] = []
        for _ in 0..<60 {
            let title = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                Self.pieces.randomElement(using: &generator)!
            }.joined()
            let low = Int.random(in: 0...4, using: &generator)
            let digits = { (generator: inout SeededGenerator) in
                "\(Int.random(in: -99...99, using: &generator)).\(Int.random(in: 0...999, using: &generator))"
            }
            cases.append(
                Case(
                    title: title, pattern: Self.pattern(using: &generator), minimumLength: low,
                    maximumLength: low + Int.random(in: 0...5, using: &generator), price: digits(&generator),
                    minimumPrice: digits(&generator)))
        }
        let expected = try Self.oracle(cases)
        var checked = 0
        for (index, item) in cases.enumerated() {
            let model = Self.model(
                titleRules: [
                    .minimumLength(item.minimumLength), .maximumLength(item.maximumLength),
                    .regularExpression(item.pattern),
                ],
                pricesRules: [.minimumValue(.decimal(Decimal(string: item.minimumPrice)!))])
            try model.validate()
            let container = try makeContainer(in: nil, name: "Rules", model: model)
            let context = container.viewContext
            let manuscript = Manuscript(context: context)
            manuscript.title = item.title
            manuscript.pages = 2
            manuscript.price = Decimal(string: item.price)!
            var codes: [Int] = []
            var error: ManagedStoreError?
            do { try context.save() } catch let thrown as ManagedStoreError { error = thrown }
            if case .validationFailed(let failures) = error {
                codes = failures.map(\.code.rawValue).sorted()
                #expect(failures.allSatisfy { $0.objectID == manuscript.objectID })
                let code = error?.validationErrorCode?.rawValue
                #expect(code == (failures.count == 1 ? failures[0].code.rawValue : 1560))
                #expect(context.hasChanges, "a refused save keeps the changes")
            }
            #expect(
                codes == expected[index],
                "ECBRATES_SEED=\(Self.seed) case \(index): \(item) gave \(codes), the oracle \(expected[index]); \(String(describing: error))"
            )
            checked += 1
        }
        #expect(checked == 60)
        #expect(expected.contains { $0.count > 1 }, "the seed's cases include several failures of one object")
        #expect(expected.contains { $0.isEmpty }, "and cases that pass")
    }

    @Test func everyObjectsFailuresComeTogetherWithTheirValuesAndReasons() throws {
        let container = try makeContainer(in: nil, name: "Rules", model: Self.model(titleRules: [.minimumLength(2)]))
        let context = container.viewContext
        let first = Manuscript(context: context)
        first.title = "x"
        first.pages = 3
        let second = Manuscript(context: context)
        second.title = "ok"
        second.pages = 1_003
        second.due = Date(timeIntervalSinceReferenceDate: -1)
        #expect(throws: ManagedStoreError.self) { try context.save() }
        do {
            try context.save()
        } catch let error as ManagedStoreError {
            guard case .validationFailed(let failures) = error else { Issue.record("\(error)"); return }
            #expect(error.validationErrorCode == .multipleErrors)
            let seen = failures.map {
                "\($0.objectID == first.objectID ? "first" : "second").\($0.attribute ?? "-") \($0.code.rawValue)"
            }
            #expect(
                Set(seen) == [
                    "first.title 1670", "first.pages 1550", "second.pages 1610", "second.pages 1550", "second.due 1640",
                ],
                "\(seen)")
            let pages = failures.first { $0.code == .numberTooLarge }
            #expect(pages?.value == .integer(1_003))
            #expect(pages?.reason == "is 1003, more than the maximum, 1000")
            #expect(failures.first { $0.code == .managedObjectValidation }?.reason == "a sheet has two pages")
            #expect(
                failures.first { $0.code == .dateTooSoon }?.reason
                    == "is 2000-12-31T23:59:59Z, before the earliest allowed, 2001-01-01T00:00:00Z")
            #expect(
                failures.first { $0.code == .stringTooShort }?.reason == "is 1 long, shorter than the minimum length, 2"
            )
        }
        first.title = "xy"
        first.pages = 4
        second.pages = 1_000
        second.due = nil
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test func validateValueChecksAValueBeforeItIsSet() throws {
        let container = try makeContainer(in: nil, name: "Rules", model: Self.model(titleRules: [.maximumLength(3)]))
        let manuscript = Manuscript(context: container.viewContext)
        #expect(throws: Never.self) { try manuscript.validateValue(.string("abc"), forKey: "title") }
        do {
            try manuscript.validateValue(.string("😀😀"), forKey: "title")
            Issue.record("two emoji are 4 UTF-16 units, more than 3")
        } catch let error as ManagedStoreError {
            #expect(error.validationErrorCode == .stringTooLong)
            #expect(
                "\(error)".hasSuffix("title of \(manuscript.objectID): is 4 long, longer than the maximum length, 3"))
        }
        do {
            try manuscript.validateValue(.null, forKey: "title")
            Issue.record("nil in a mandatory attribute")
        } catch let error as ManagedStoreError {
            #expect(error.validationErrorCode == .missingMandatoryProperty)
        }
        #expect(manuscript.committedValues(forKeys: nil).isEmpty, "nothing was set")
    }

    @Test func aRuleThatCannotApplyIsAnErrorOfTheModel() {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Manuscript", managedObjectClass: Manuscript.self,
                attributes: [
                    AttributeDescription(name: "title", type: .string, validationRules: [.regularExpression("a)(b")]),
                    AttributeDescription(name: "pages", type: .integer32, validationRules: [.maximumLength(3)]),
                    AttributeDescription(
                        name: "price", type: .decimal, isOptional: true, validationRules: [.minimumValue(.string("1"))]),
                    AttributeDescription(name: "due", type: .date, isOptional: true),
                ])
        ])
        do {
            _ = try makeContainer(in: nil, name: "Rules", model: model)
            Issue.record("the model was taken")
        } catch {
            let said = "\(error)"
            #expect(
                said.contains(
                    "Manuscript: the rule matching /a)(b/ of attribute 'title': 'a)(b' is not a regular expression ICU reads"
                ), "\(said)")
            #expect(
                said.contains(
                    "Manuscript: the rule at most 3 long of attribute 'pages': an attribute of type integer32 has no length"
                ), "\(said)")
            #expect(said.contains("the bound \"1\" is not a value of an attribute of type decimal"), "\(said)")
        }
    }
}
