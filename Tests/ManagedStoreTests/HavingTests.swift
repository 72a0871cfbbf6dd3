import Foundation
import ManagedStore
import TestSupport
import Testing

final class Score: ManagedObject {
    @Attribute var player: String
    @Attribute var points: Int64
    @Attribute var seconds: Double?
}

/// Grouped fetches with a having condition (Core Data's `propertiesToGroupBy` and
/// `havingPredicate`, as `GROUP BY … HAVING`): over seeded rows and seeded conditions, the
/// groups ManagedStore gives are those Python finds by grouping the same rows itself.
@Suite struct HavingTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 1560

    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Score", managedObjectClass: Score.self,
            attributes: [
                AttributeDescription(name: "player", type: .string),
                AttributeDescription(name: "points", type: .integer64),
                AttributeDescription(name: "seconds", type: .double, isOptional: true),
            ])
    ])

    typealias Having = AggregateRequest<Score>.Having

    /// A seeded condition, and the same in Python (over a group's `n`, `points` and `seconds`).
    static func condition(_ generator: inout SeededGenerator, depth: Int = 0) -> (Having, String) {
        if depth < 2 && Int.random(in: 0..<3, using: &generator) == 0 {
            let (left, leftPython) = condition(&generator, depth: depth + 1)
            let (right, rightPython) = condition(&generator, depth: depth + 1)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return (.and(left, right), "(\(leftPython) and \(rightPython))")
            case 1: return (.or(left, right), "(\(leftPython) or \(rightPython))")
            default: return (.not(left), "(not \(leftPython))")
            }
        }
        let comparisons: [(AggregateRequest<Score>.Comparison, String)] = [
            (.less, "<"), (.lessOrEqual, "<="), (.greater, ">"), (.greaterOrEqual, ">="), (.equal, "=="),
            (.notEqual, "!="),
        ]
        let (comparison, op) = comparisons.randomElement(using: &generator)!
        let k = Int64.random(in: 0...12, using: &generator)
        // Python's None meets no comparison, as SQL's NULL: `cmp` is false for None.
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return (.compare(.count, comparison, .integer(k)), "cmp(len(ps), '\(op)', \(k))")
        case 1:
            return (.compare(.sum("points"), comparison, .integer(k * 5)), "cmp(float(sum(ps)), '\(op)', \(k * 5))")
        case 2: return (.compare(.max("points"), comparison, .integer(k)), "cmp(max(ps), '\(op)', \(k))")
        case 3: return (.compare(.min("points"), comparison, .integer(k)), "cmp(min(ps), '\(op)', \(k))")
        case 4:
            let half = Double(k) + 0.5
            return (.compare(.average("points"), comparison, .double(half)), "cmp(sum(ps)/len(ps), '\(op)', \(half))")
        default:
            let half = Double(k) + 0.25
            return (
                .compare(.min("seconds"), comparison, .double(half)),
                "cmp(min(ss) if ss else None, '\(op)', \(half))"
            )
        }
    }

    @Test func theGroupsAreThoseAHavingConditionKeepsInPython() throws {
        var generator = SeededGenerator(seed: Self.seed)
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "scores", model: Self.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for _ in 0..<300 {
                let score = Score(context: context)
                score.player = "p\(Int.random(in: 0..<25, using: &generator))"
                score.points = Int64.random(in: 0...12, using: &generator)
                score.seconds =
                    Int.random(in: 0..<4, using: &generator) == 0
                    ? nil : Double(Int.random(in: 0...48, using: &generator)) / 4
            }
            try context.save()
        }
        var conditions: [Having] = []
        var python: [String] = []
        for _ in 0..<60 {
            let (having, text) = Self.condition(&generator)
            conditions.append(having)
            python.append(text)
        }
        let script = """
            import sqlite3, sys, json, operator
            path, conditions = json.load(sys.stdin)
            ops = {'<': operator.lt, '<=': operator.le, '>': operator.gt, '>=': operator.ge, '==': operator.eq, '!=': operator.ne}
            def cmp(a, op, b): return a is not None and ops[op](a, b)
            groups = {}
            for player, points, seconds in sqlite3.connect(path).execute('SELECT player, points, seconds FROM Score'):
                groups.setdefault(player, ([], []))
                groups[player][0].append(points)
                if seconds is not None: groups[player][1].append(seconds)
            out = []
            for condition in conditions:
                out.append(sorted(p for p, (ps, ss) in groups.items() if eval(condition)))
            json.dump(out, sys.stdout)
            """
        let input = try JSONSerialization.data(withJSONObject: [dir.file("scores.sqlite").path, python])
        let expected = try JSONDecoder().decode([[String]].self, from: try PythonTools.run(script, input: input))
        var kept = 0
        try context.performAndWait {
            for (index, having) in conditions.enumerated() {
                let groups = try context.aggregate(FetchRequest<Score>(), groupedBy: \.player, having: having, .count)
                    .map(\.0)
                #expect(
                    groups == expected[index],
                    "ECBRATES_SEED=\(Self.seed) condition \(index): \(having) (Python: \(python[index]))")
                kept += groups.count
            }
        }
        #expect(kept > 0 && kept < 60 * 25, "the conditions keep some groups and drop others")
    }

    @Test func aHavingConditionNeedsGroups() throws {
        let container = try makeContainer(in: nil, name: "scores", model: Self.model)
        let context = container.viewContext
        #expect(throws: ManagedStoreError.self) {
            try context.performAndWait {
                try context.aggregate(
                    AggregateRequest<Score>(aggregates: [.count], having: .compare(.count, .greater, .integer(1))))
            }
        }
    }
}
