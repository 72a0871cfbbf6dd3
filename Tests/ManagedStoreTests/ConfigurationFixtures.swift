import Foundation
import ManagedStore
import TestSupport

final class Periodical: ManagedObject {
    @Attribute var name: String
    @Relationship var fascicles: Set<Fascicle>
}

final class Fascicle: ManagedObject {
    @Attribute var code: String
    @Relationship var periodical: Periodical?
}

final class Patron: ManagedObject {
    @Attribute var name: String
    @Relationship var borrowings: Set<Borrowing>
}

final class Borrowing: ManagedObject {
    @Attribute var editionCode: String
    @Relationship var patron: Patron?
}

/// A library of two configurations: "Catalogue" (Periodical and its Editions) and "Lending"
/// (Patron and its Borrowings, which name fascicles by code, as objects of two stores do).
enum TwoStoreModel {
    /// New entity descriptions each time (a model lays its entities out; two models cannot
    /// share them).
    static func entities() -> [EntityDescription] {
        [
            EntityDescription(
                name: "Periodical", managedObjectClass: Periodical.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    .toMany("fascicles", destination: "Fascicle", inverse: "periodical", deleteRule: .cascade)
                ],
                uniquenessConstraints: [["name"]]),
            EntityDescription(
                name: "Fascicle", managedObjectClass: Fascicle.self,
                attributes: [AttributeDescription(name: "code", type: .string)],
                relationships: [.toOne("periodical", destination: "Periodical", inverse: "fascicles")]),
            EntityDescription(
                name: "Patron", managedObjectClass: Patron.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    .toMany("borrowings", destination: "Borrowing", inverse: "patron", deleteRule: .cascade)
                ],
                uniquenessConstraints: [["name"]]),
            EntityDescription(
                name: "Borrowing", managedObjectClass: Borrowing.self,
                attributes: [AttributeDescription(name: "editionCode", type: .string)],
                relationships: [.toOne("patron", destination: "Patron", inverse: "borrowings")]),
        ]
    }

    /// The model with its two configurations.
    static func makeModel() -> ManagedObjectModel {
        let all = entities()
        return ManagedObjectModel(
            entities: all, configurations: ["Catalogue": Array(all[0...1]), "Lending": Array(all[2...3])])
    }

    static let model = makeModel()

    /// The descriptions of the two stores in `directory`, with history when `history`.
    static func descriptions(in directory: TemporaryDirectory, history: Bool = false) -> [PersistentStoreDescription] {
        ["Catalogue", "Lending"].map { configuration in
            var description = PersistentStoreDescription(url: directory.file("\(configuration.lowercased()).sqlite"))
            description.configuration = configuration
            description.persistentHistoryTracking = history
            return description
        }
    }

    /// A container with both stores loaded.
    static func container(in directory: TemporaryDirectory, history: Bool = false) throws -> PersistentContainer {
        let container = PersistentContainer(name: "TwoStores", managedObjectModel: model)
        container.persistentStoreDescriptions = descriptions(in: directory, history: history)
        try container.loadPersistentStores()
        return container
    }

    /// What each store file holds, as Python's `sqlite3` reads it: per file, its tables of
    /// entities, and per owner name its members' codes.
    struct Files: Equatable, CustomStringConvertible {
        var catalogueTables: [String]
        var lendingTables: [String]
        var periodicals: [String: Set<String>]
        var patrons: [String: Set<String>]

        var description: String {
            "catalogue \(catalogueTables) \(periodicals.sorted { $0.key < $1.key }); lending \(lendingTables) \(patrons.sorted { $0.key < $1.key })"
        }
    }

    static func read(_ directory: TemporaryDirectory) throws -> Files {
        let script = """
            import json, sqlite3, sys
            catalogue, lending = sys.stdin.read().split("\\n")
            def tables(db):
                names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                return sorted(n for n in names if n in ("Periodical", "Fascicle", "Patron", "Borrowing"))
            def owners(db, owner, member, column, key):
                out = {}
                for name, pk in db.execute(f"SELECT name, Z_PK FROM {owner}"):
                    out[name] = sorted(r[0] for r in db.execute(f"SELECT {column} FROM {member} WHERE {key} = ?", (pk,)))
                return out
            c, l = sqlite3.connect(catalogue), sqlite3.connect(lending)
            print(json.dumps({
                "ct": tables(c), "lt": tables(l),
                "p": owners(c, "Periodical", "Fascicle", "code", "periodical"),
                "r": owners(l, "Patron", "Borrowing", "editionCode", "patron"),
            }))
            """
        let input = directory.file("catalogue.sqlite").path + "\n" + directory.file("lending.sqlite").path
        let output = try PythonTools.run(script, input: Data(input.utf8))
        struct Read: Decodable {
            let ct: [String]
            let lt: [String]
            let p: [String: [String]]
            let r: [String: [String]]
        }
        let read = try JSONDecoder().decode(Read.self, from: output)
        return Files(
            catalogueTables: read.ct, lendingTables: read.lt, periodicals: read.p.mapValues(Set.init),
            patrons: read.r.mapValues(Set.init))
    }
}
