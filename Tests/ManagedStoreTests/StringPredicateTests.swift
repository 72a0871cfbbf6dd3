import Foundation
import ManagedStore
import TestSupport
import Testing

/// `title.contains("Peace")` in a `#Predicate` (Core Data's CONTAINS) is answered by the store,
/// and the store answers what the predicate itself answers in memory (`Predicate.evaluate`, the
/// oracle): over seeded Unicode titles (precomposed and decomposed accents, emoji with
/// modifiers, scripts without case) and needles cut from them at any scalar.
@MainActor @Suite struct StringPredicateTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 2026_11_29

    static let pieces = [
        "War", "and", "Peace", "peace", " ", "é", "e\u{301}", "E", "ß", "SS", "Ω", "ω", "日本", "語", "👍", "👍🏽",
        "🇩🇪", "ﬁ", "fi", "ñ", "n\u{303}", "Straße", "İ", "i", "\u{301}", "—", "x",
    ]

    @Test func containsInTheStoreAgreesWithThePredicateItself() throws {
        var generator = SeededGenerator(seed: Self.seed)
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        var titles: [String] = []
        for _ in 0..<240 {
            let count = Int.random(in: 1...6, using: &generator)
            let title = (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            if titles.contains(title) { continue }  // a title is unique (Note's constraint)
            titles.append(title)
            let note = Note(context: view)
            note.title = title
            note.stars = 0
            note.created = Date(timeIntervalSince1970: 0)
        }
        try view.save()
        let notes = try view.fetch(FetchRequest<Note>())
        var checked = 0
        for round in 0..<150 {
            // A needle: a piece, or a slice of a title cut at scalars (perhaps inside a Character).
            let needle: String
            if Bool.random(using: &generator) {
                needle = Self.pieces.randomElement(using: &generator)!
            } else {
                let scalars = Array(titles.randomElement(using: &generator)!.unicodeScalars)
                let start = Int.random(in: 0..<scalars.count, using: &generator)
                let end = Int.random(in: (start + 1)...scalars.count, using: &generator)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[start..<end])
                needle = String(view)
            }
            let predicate = #Predicate<Note> { $0.title.contains(needle) }
            let stored = try view.fetch(FetchRequest(predicate: predicate)).map(\.objectID)
            let evaluated = try notes.filter { try predicate.evaluate($0) }.map(\.objectID)
            #expect(
                Set(stored) == Set(evaluated),
                "ECBRATES_SEED=\(Self.seed) round \(round): contains(\(needle.unicodeScalars.map { String($0.value, radix: 16) })): store \(stored.count), predicate \(evaluated.count)"
            )
            checked += 1
        }
        #expect(checked == 150)
        // By hand: Swift's sense, not bytes' (a decomposed é holds no e), case and accents count.
        func count(_ needle: String) throws -> Int {
            try view.count(for: FetchRequest<Note>(predicate: #Predicate { $0.title.contains(needle) }))
        }
        let plain = Note(context: view)
        plain.title = "cafe\u{301} War and Peace"
        plain.stars = 0
        plain.created = Date(timeIntervalSince1970: 0)
        try view.save()
        #expect(try count("War and Peace") >= 1)
        #expect(try count("cafe ") == titles.filter { $0.contains("cafe ") }.count)
    }
}
