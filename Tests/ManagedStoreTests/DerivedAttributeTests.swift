import Foundation
import ManagedStore
import TestSupport
import Testing

final class Shelf: ManagedObject {
    @Attribute var label: String
    @Attribute var searchLabel: String?
    @Attribute var lowerLabel: String?
    @Attribute var upperLabel: String?
    @Attribute var volumeCount: Int64?
    @Attribute var markCount: Int64?
    @Attribute var touched: Date?
    @Relationship var volumes: Set<Volume>
    @Relationship var marks: Set<Mark>
}

final class Volume: ManagedObject {
    @Attribute var title: String
    @Attribute var shelfLabel: String?
    @Relationship var shelf: Shelf?
}

final class Mark: ManagedObject {
    @Attribute var text: String
    @Relationship var shelves: Set<Shelf>
}

/// Every kind of derivation: a shelf's label folded three ways, the counts of its to-many and
/// its many-to-many members, the time of its last save; a volume's copy of its shelf's label.
enum ShelfModel {
    static func entities(derived: Bool = true) -> [EntityDescription] {
        func derivedAttribute(_ name: String, _ type: AttributeType, _ expression: String) -> [AttributeDescription] {
            derived
                ? [AttributeDescription(name: name, type: type, derivationExpression: expression)]
                : [AttributeDescription(name: name, type: type, isOptional: true)]
        }
        return [
            EntityDescription(
                name: "Shelf", managedObjectClass: Shelf.self,
                attributes: [AttributeDescription(name: "label", type: .string)]
                    + derivedAttribute("searchLabel", .string, "canonical:(label)")
                    + derivedAttribute("lowerLabel", .string, "lowercase:(label)")
                    + derivedAttribute("upperLabel", .string, "uppercase:(label)")
                    + derivedAttribute("volumeCount", .integer64, "volumes.@count")
                    + derivedAttribute("markCount", .integer64, "marks.@count")
                    + derivedAttribute("touched", .date, "now()"),
                relationships: [
                    .toMany("volumes", destination: "Volume", inverse: "shelf"),
                    .toMany("marks", destination: "Mark", inverse: "shelves"),
                ]),
            EntityDescription(
                name: "Volume", managedObjectClass: Volume.self,
                attributes: [AttributeDescription(name: "title", type: .string)]
                    + derivedAttribute("shelfLabel", .string, "shelf.label"),
                relationships: [.toOne("shelf", destination: "Shelf", inverse: "volumes")]),
            EntityDescription(
                name: "Mark", managedObjectClass: Mark.self,
                attributes: [AttributeDescription(name: "text", type: .string)],
                relationships: [.toMany("shelves", destination: "Shelf", inverse: "marks")]),
        ]
    }

    static let model = ManagedObjectModel(entities: entities())
}

/// Derived attributes as Core Data documents `NSDerivedAttributeDescription`: "A description
/// of an attribute that derives its value by performing a calculation on a related attribute",
/// with the expressions of its table (a key path, a to-one's attribute, a to-many's `@count`,
/// `now()`, `lowercase:`, `uppercase:`, `canonical:`), for an SQL store; the store computes
/// them when the context saves (developer.apple.com, NSDerivedAttributeDescription).
@Suite struct DerivedAttributeTests {
    @Test func theStoreComputesEachKindAtTheSaveAndTheSavedObjectsHoldTheValues() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Shelves", model: ShelfModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let shelf = Shelf(context: context)
            shelf.label = "Écoles Straße"
            let volumes = (0..<3).map { index in
                let volume = Volume(context: context)
                volume.title = "v\(index)"
                volume.shelf = shelf
                return volume
            }
            let mark = Mark(context: context)
            mark.text = "new"
            shelf.marks = [mark]
            #expect(shelf.searchLabel == nil && shelf.volumeCount == nil, "nil until saved")
            let before = Date()
            try context.save()
            let after = Date()
            #expect(shelf.searchLabel == "ecoles strasse")
            #expect(shelf.lowerLabel == "écoles straße")
            #expect(shelf.upperLabel == "ÉCOLES STRASSE")
            #expect(shelf.volumeCount == 3)
            #expect(shelf.markCount == 1)
            let touched = try #require(shelf.touched)
            #expect(touched >= before.addingTimeInterval(-0.01) && touched <= after.addingTimeInterval(0.01))
            #expect(volumes.allSatisfy { $0.shelfLabel == "Écoles Straße" })

            // A change to what a value derives from: recomputed by the next save. The objects
            // the save wrote take it; the others (here the volumes) when they are refreshed.
            shelf.label = "Maths"
            context.delete(volumes[0])
            shelf.marks = []
            try context.save()
            #expect(shelf.searchLabel == "maths" && shelf.volumeCount == 2 && shelf.markCount == 0)
            #expect(volumes[1].shelfLabel == "Écoles Straße", "not saved: not refreshed")
            context.refresh(volumes[1], mergeChanges: false)
            #expect(volumes[1].shelfLabel == "Maths")
        }
        // In the store, for any reader.
        #expect(
            try sqliteRows(dir.file("Shelves.sqlite"), "SELECT searchLabel, volumeCount, markCount FROM Shelf")
                == [["maths", "2", "0"]])
    }

    /// A batch request's rows are computed too (the store's triggers run in its transaction).
    @Test func batchRequestsAreComputedToo() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Shelves", model: ShelfModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let shelf = Shelf(context: context)
            shelf.label = "A"
            for index in 0..<4 {
                let volume = Volume(context: context)
                volume.title = "v\(index)"
                volume.shelf = shelf
            }
            try context.save()
            _ = try context.execute(
                BatchDeleteRequest(FetchRequest<Volume>(predicate: #Predicate { $0.title == "v0" || $0.title == "v1" }))
            )
            _ = try context.execute(
                BatchInsertRequest<Shelf>(objects: [["label": .string("Ünïcode")]]))
        }
        #expect(
            try sqliteRows(
                dir.file("Shelves.sqlite"), "SELECT label, searchLabel, volumeCount FROM Shelf ORDER BY Z_PK")
                == [["A", "a", "2"], ["Ünïcode", "unicode", "0"]])
    }

    @Test func settingADerivedAttributeTraps() async {
        await #expect(processExitsWith: .failure) {
            let container = try makeContainer(in: nil, name: "Shelves", model: ShelfModel.model)
            let context = container.newBackgroundContext()
            context.performAndWait {
                let shelf = Shelf(context: context)
                shelf.searchLabel = "x"
            }
        }
    }

    /// A migration that makes an attribute derived (or adds one) computes it for every stored
    /// row, in the migration's transaction.
    @Test func aMigrationComputesTheValuesOfTheStoredRows() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Shelves.sqlite")
        func open(_ model: ManagedObjectModel) throws -> PersistentContainer {
            let container = PersistentContainer(name: "Shelves", managedObjectModel: model)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            try container.loadPersistentStores()
            return container
        }
        do {
            let container = try open(ManagedObjectModel(entities: ShelfModel.entities(derived: false)))
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for label in ["Été", "Winter"] {
                    let shelf = Shelf(context: context)
                    shelf.label = label
                    let volume = Volume(context: context)
                    volume.title = label
                    volume.shelf = shelf
                }
                try context.save()
            }
        }
        #expect(try sqliteRows(url, "SELECT COUNT(*) FROM Shelf WHERE searchLabel IS NULL") == [["2"]])
        let container = try open(ShelfModel.model)
        let context = container.newBackgroundContext()
        let shelves = try context.performAndWait {
            try context.fetch(FetchRequest<Shelf>(sortBy: [SortDescriptor(\.label)])).map {
                [$0.searchLabel ?? "nil", String($0.volumeCount ?? -1)]
            }
        }
        // (Strings sort by code point: "W" before "É".)
        #expect(shelves == [["winter", "1"], ["ete", "1"]])
        #expect(try sqliteRows(url, "SELECT shelfLabel FROM Volume ORDER BY title") == [["Winter"], ["Été"]])
    }

    /// An expression ManagedStore does not compute is no derivation, and making an attribute
    /// with it does not trap (it did): the model refuses it (``DerivedAggregateTests``).
    @Test func anExpressionItCannotComputeIsRefused() async throws {
        #expect(Derivation(expression: "books.@median.price") == nil)
        #expect(
            Derivation(expression: "books.@sum.price") == .aggregate(.sum, relationship: "books", attribute: "price"))
        #expect(Derivation(expression: "canonical:(name)") == .canonical("name"))
        #expect(Derivation(expression: "books.@count")?.description == "books.@count")
        let attribute = AttributeDescription(name: "total", type: .decimal, derivationExpression: "books.@median.price")
        #expect(attribute.derivation == nil && attribute.derivationExpression == "books.@median.price")
    }

    /// Property: after seeded random inserts, moves and deletions of volumes, links and unlinks
    /// of marks, and saves, every shelf's counts in the store are those of a graph the test
    /// keeps; and the three string forms of random labels (Latin letters with diacritics, ß,
    /// spaces) are Python's: `casefold()` without combining marks (NFD), `lower()`, `upper()`.
    @Test func countsFollowRandomEditsAndStringsMatchPython() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Shelves", model: ShelfModel.model)
        let context = container.newBackgroundContext()
        let alphabet = Array("aAeEéÉèàÀüÜöÖßçÇñÑ ıİøØåÅzZ")
        var labels: [String] = []
        try context.performAndWait {
            var shelves: [Shelf] = []
            var volumes: [Volume] = []
            var marks: [Mark] = []
            var kept: [String: (volumes: Int, marks: Int)] = [:]
            for step in 0..<300 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    let shelf = Shelf(context: context)
                    shelf.label =
                        "s\(step)-"
                        + String(
                            (0..<Int.random(in: 1..<12, using: &random)).map { _ in
                                alphabet.randomElement(using: &random)!
                            })
                    labels.append(shelf.label)
                    shelves.append(shelf)
                case 1..<3 where !shelves.isEmpty:
                    let volume = Volume(context: context)
                    volume.title = "v\(step)"
                    volume.shelf = shelves.randomElement(using: &random)
                    volumes.append(volume)
                case 3 where !volumes.isEmpty && !shelves.isEmpty:
                    volumes.randomElement(using: &random)!.shelf = shelves.randomElement(using: &random)
                case 4 where !volumes.isEmpty:
                    let index = Int.random(in: 0..<volumes.count, using: &random)
                    context.delete(volumes.remove(at: index))
                case 5 where !shelves.isEmpty:
                    let mark = Mark(context: context)
                    mark.text = "m\(step)"
                    mark.shelves = Set(shelves.filter { _ in Bool.random(using: &random) })
                    marks.append(mark)
                case 6 where !marks.isEmpty && !shelves.isEmpty:
                    let shelf = shelves.randomElement(using: &random)!
                    let mark = marks.randomElement(using: &random)!
                    if Bool.random(using: &random) { shelf.marks.insert(mark) } else { mark.shelves.remove(shelf) }
                default:
                    try context.save()
                    kept = Dictionary(
                        uniqueKeysWithValues: shelves.map { ($0.label, ($0.volumes.count, $0.marks.count)) })
                    let stored = try sqliteRows(
                        dir.file("Shelves.sqlite"), "SELECT label, volumeCount, markCount FROM Shelf")
                    for row in stored {
                        let expected = kept[row[0]]
                        #expect(
                            [row[1], row[2]] == [String(expected?.volumes ?? -1), String(expected?.marks ?? -1)],
                            "seed \(seed), step \(step): \(row[0])")
                    }
                    #expect(stored.count == shelves.count, "seed \(seed), step \(step)")
                }
            }
            try context.save()
        }
        // The string forms against Python's.
        let input = dir.file("labels.json")
        try JSONSerialization.data(withJSONObject: labels).write(to: input)
        let script = """
            import json, sys, unicodedata
            def fold(s):
                return unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", s.casefold()) if unicodedata.category(c) != "Mn"))
            labels = json.load(open(sys.argv[1]))
            print(json.dumps({l: [fold(l), l.lower(), l.upper()] for l in labels}))
            """
        let python = try SpawnedProcess.run(PythonTools.system, ["-c", script, input.path])
        let expected = try JSONSerialization.jsonObject(with: Data(python.out.utf8)) as! [String: [String]]
        let stored = try sqliteRows(
            dir.file("Shelves.sqlite"), "SELECT label, searchLabel, lowerLabel, upperLabel FROM Shelf")
        #expect(stored.count == labels.count)
        for row in stored {
            let ours = row.dropFirst().map { $0.precomposedStringWithCanonicalMapping }
            #expect(ours == expected[row[0]], "seed \(seed): \(row[0])")
        }
    }
}
