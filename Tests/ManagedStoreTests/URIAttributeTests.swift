import Foundation
import ManagedStore
import TestSupport
import Testing

final class Bookmark: ManagedObject {
    @Attribute var link: URL
    @Attribute var mirror: URL?
}

/// A URI attribute (Core Data's `URIAttributeType`) holds a `URL`: stored as its text, read
/// back equal, found by a predicate; checked over seeded URIs against what Python's sqlite3
/// reads from the column.
@Suite struct URIAttributeTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 3986

    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Bookmark", managedObjectClass: Bookmark.self,
            attributes: [
                AttributeDescription(name: "link", type: .uri),
                AttributeDescription(name: "mirror", type: .uri, isOptional: true),
            ])
    ])

    /// URIs as RFC 3986 writes them (percent-encoded where they must be), so that the text is
    /// the URL's `absoluteString`.
    static func uris(count: Int) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let segments = ["a", "b%20c", "%C3%A9t%C3%A9", "x.y", "~user", "1-2_3", "%F0%9F%98%80", ""]
        var found: [String] = []
        while found.count < count {
            let scheme = ["https", "http", "file", "mailto", "urn", "x-app"].randomElement(using: &generator)!
            var text: String
            switch scheme {
            case "mailto": text = "mailto:someone\(found.count)@example.org"
            case "urn": text = "urn:isbn:978\(Int.random(in: 1_000_000...9_999_999, using: &generator))"
            case "file": text = "file:///tmp/" + segments.randomElement(using: &generator)!
            default:
                text = "\(scheme)://example.org"
                if Bool.random(using: &generator) { text += ":\(Int.random(in: 1...65535, using: &generator))" }
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    text += "/" + segments.randomElement(using: &generator)!
                }
                if Bool.random(using: &generator) { text += "?q=\(segments.randomElement(using: &generator)!)&n=1" }
                if Bool.random(using: &generator) { text += "#" + segments.randomElement(using: &generator)! }
            }
            found.append(text)
        }
        return found
    }

    @Test func aURLComesBackEqualStoredAsItsText() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("bookmarks.sqlite")
        let texts = Self.uris(count: 120)
        do {
            let context = try makeContainer(in: dir, name: "bookmarks", model: Self.model).newBackgroundContext()
            try context.performAndWait {
                for (index, text) in texts.enumerated() {
                    let bookmark = Bookmark(context: context)
                    bookmark.link = URL(string: text)!
                    bookmark.mirror = index % 3 == 0 ? nil : URL(string: texts[(index + 1) % texts.count])!
                }
                try context.save()
            }
        }
        let stored = String(
            decoding: try PythonTools.run(
                "import sqlite3, sys, json; print(json.dumps([r[0] for r in sqlite3.connect(sys.stdin.read()).execute('SELECT link FROM Bookmark ORDER BY Z_PK')]))",
                input: Data(url.path.utf8)), as: UTF8.self)
        #expect(try JSONDecoder().decode([String].self, from: Data(stored.utf8)) == texts, "ECBRATES_SEED=\(Self.seed)")
        let context = try makeContainer(in: dir, name: "bookmarks", model: Self.model).newBackgroundContext()
        try context.performAndWait {
            let bookmarks = try context.fetch(FetchRequest<Bookmark>())
            #expect(Set(bookmarks.map(\.link)) == Set(texts.map { URL(string: $0)! }), "ECBRATES_SEED=\(Self.seed)")
            #expect(bookmarks.filter { $0.mirror == nil }.count == 40)
            let wanted = URL(string: texts[17])!
            let found = try context.fetch(FetchRequest<Bookmark>(predicate: #Predicate { $0.link == wanted }))
            #expect(found.map(\.link) == [wanted])
        }
    }

    @Test func aURLAttributeIsNotAString() {
        #expect(URL.attributeType == .uri)
        #expect(AttributeDescription(name: "link", type: .uri).description == "link: uri")
        #expect(URL(attributeValue: .string("https://example.org/a")) == URL(string: "https://example.org/a"))
        #expect(URL(attributeValue: .integer(1)) == nil)
        let bookmark = Bookmark(entity: Self.model.entitiesByName["Bookmark"]!, insertInto: nil)
        bookmark.link = URL(string: "https://example.org/b")!
        #expect(bookmark.value(forKey: "link") as? URL == URL(string: "https://example.org/b"), "the Swift type, a URL")
    }
}
