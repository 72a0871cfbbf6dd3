import Foundation
import ManagedStore
import TestSupport
import Testing

/// An entity class without `@Attribute` properties, so that one class serves every model
/// version below (values go through `value(forKey:)` and `setValue(_:forKey:)`).
final class Item: ManagedObject {}
final class Tag: ManagedObject {}

/// Lightweight migration, as Core Data infers it: a store made by an earlier model is migrated
/// on load when `shouldMigrateStoreAutomatically` and `shouldInferMappingModelAutomatically`
/// (both on by default) allow it, and the change can be inferred; otherwise it is refused and
/// left untouched.
@Suite struct MigrationTests {
    static func item(
        _ attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
        unique: [[String]] = [], indexes: [[String]] = [], name: String = "Item", renaming: String? = nil
    ) -> EntityDescription {
        EntityDescription(
            name: name, managedObjectClass: Item.self, attributes: attributes, relationships: relationships,
            uniquenessConstraints: unique, indexes: indexes, renamingIdentifier: renaming)
    }

    static let title = AttributeDescription(name: "title", type: .string)
    static let count = AttributeDescription(name: "count", type: .integer64, isOptional: true)
    static let base = ManagedObjectModel(entities: [item([title, count])])

    /// A store of `model` at `url` holding items titled a, b, c with counts 1, nil, 3.
    static func makeStore(_ url: URL, model: ManagedObjectModel = base) throws {
        let container = try open(url, model)
        try container.viewContext.performAndWait {
            for (title, count) in [("a", Int64(1)), ("b", nil), ("c", 3)] {
                let item = Item(context: container.viewContext)
                item.setValue(title, forKey: "title")
                item.setValue(count, forKey: "count")
            }
            try container.viewContext.save()
        }
    }

    static func open(
        _ url: URL, _ model: ManagedObjectModel, configure: (inout PersistentStoreDescription) -> Void = { _ in }
    ) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Migration", managedObjectModel: model)
        var description = PersistentStoreDescription(url: url)
        configure(&description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// The items' values of `keys`, ordered by title (or the first key).
    static func rows(_ container: PersistentContainer, _ keys: [String]) throws -> [[String]] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(FetchRequest<Item>()).map { item in keys.map { "\(item.value(forKey: $0) ?? "nil")" } }
                .sorted { $0[0] < $1[0] }
        }
    }

    @Test func addingAnOptionalAndADefaultedAttributeKeepsEveryRow() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let model = ManagedObjectModel(entities: [
            Self.item([
                Self.title, Self.count,
                AttributeDescription(name: "note", type: .string, isOptional: true),
                AttributeDescription(name: "stars", type: .integer16, defaultValue: .integer(5)),
            ])
        ])
        #expect(
            !model.isConfiguration(
                compatibleWithStoreMetadata: try PersistentStoreCoordinator.metadataForPersistentStore(at: url)))
        let container = try Self.open(url, model)
        #expect(
            try Self.rows(container, ["title", "count", "note", "stars"]) == [
                ["a", "1", "nil", "5"], ["b", "nil", "nil", "5"], ["c", "3", "nil", "5"],
            ])
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
        #expect(model.isConfiguration(compatibleWithStoreMetadata: metadata))
        #expect(metadata.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(metadata.entityVersionHashesByName != Self.base.entityVersionHashesByName)
    }

    @Test func removingAnAttributeAndRenamingAnotherKeepTheRest() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let model = ManagedObjectModel(entities: [
            Self.item(
                [AttributeDescription(name: "name", type: .string, renamingIdentifier: "title")],
                unique: [["name"]])
        ])
        let container = try Self.open(url, model)
        #expect(try Self.rows(container, ["name"]) == [["a"], ["b"], ["c"]])
        // The new uniqueness constraint holds.
        let context = container.newBackgroundContext()
        #expect(throws: ManagedStoreError.self) {
            try context.performAndWait {
                let item = Item(context: context)
                item.setValue("a", forKey: "name")
                try context.save()
            }
        }
    }

    @Test func renamingTheEntityKeepsItsRowsAndKeys() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let old = try Self.open(url, Self.base)
        let oldKeys = try old.viewContext.performAndWait {
            try old.viewContext.fetch(FetchRequest<Item>()).map { $0.objectID.uriRepresentation().lastPathComponent }
        }
        let model = ManagedObjectModel(entities: [Self.item([Self.title, Self.count], name: "Thing", renaming: "Item")])
        let container = try Self.open(url, model)
        #expect(try Self.rows(container, ["title", "count"]) == [["a", "1"], ["b", "nil"], ["c", "3"]])
        let keys = try container.viewContext.performAndWait {
            try container.viewContext.fetch(FetchRequest<Item>()).map {
                $0.objectID.uriRepresentation().lastPathComponent
            }
        }
        #expect(keys.sorted() == oldKeys.sorted())
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: url).entityNames == ["Thing"])
        // New rows take keys after the old ones.
        try container.viewContext.performAndWait {
            let item = Item(context: container.viewContext)
            item.setValue("d", forKey: "title")
            try container.viewContext.save()
            #expect(item.objectID.uriRepresentation().lastPathComponent == "p4")
        }
    }

    @Test func addingAndRemovingEntitiesAndMakingAnAttributeMandatoryWithADefault() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        let tag = EntityDescription(
            name: "Tag", managedObjectClass: Tag.self, attributes: [AttributeDescription(name: "label", type: .string)])
        try Self.makeStore(url, model: ManagedObjectModel(entities: [Self.item([Self.title, Self.count]), tag]))
        let note = EntityDescription(
            name: "Note2", managedObjectClass: Tag.self, attributes: [AttributeDescription(name: "text", type: .string)]
        )
        let model = ManagedObjectModel(entities: [
            Self.item(
                [Self.title, AttributeDescription(name: "count", type: .integer64, defaultValue: .integer(0))],
                indexes: [["count"]]),
            note,
        ])
        let container = try Self.open(url, model)
        #expect(try Self.rows(container, ["title", "count"]) == [["a", "1"], ["b", "0"], ["c", "3"]])
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: url).entityNames == ["Item", "Note2"])
        try container.viewContext.performAndWait {
            let object = Tag(context: container.viewContext)
            object.setValue("new entity works", forKey: "text")
            try container.viewContext.save()
            #expect(try container.viewContext.count(for: FetchRequest<Tag>()) == 1)
        }
    }

    @Test func addingAnOptionalRelationshipLeavesItNilOnEveryRow() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let model = ManagedObjectModel(entities: [
            Self.item([Self.title, Self.count], relationships: [.toOne("tag", destination: "Tag", inverse: "items")]),
            EntityDescription(
                name: "Tag", managedObjectClass: Tag.self,
                attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: [.toMany("items", destination: "Item", inverse: "tag")]),
        ])
        let container = try Self.open(url, model)
        #expect(try Self.rows(container, ["title", "tag"]) == [["a", "nil"], ["b", "nil"], ["c", "nil"]])
    }

    @Test func renamingARelationshipKeepsItsLinksAndRemovingOneDropsThem() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        let tag = { (relationships: [RelationshipDescription]) in
            EntityDescription(
                name: "Tag", managedObjectClass: Tag.self,
                attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: relationships)
        }
        let first = ManagedObjectModel(entities: [
            Self.item([Self.title, Self.count], relationships: [.toOne("tag", destination: "Tag", inverse: "items")]),
            tag([.toMany("items", destination: "Item", inverse: "tag")]),
        ])
        do {
            let container = try Self.open(url, first)
            try container.viewContext.performAndWait {
                let label = Tag(context: container.viewContext)
                label.setValue("red", forKey: "label")
                let item = Item(context: container.viewContext)
                item.setValue("a", forKey: "title")
                item.setValue(label, forKey: "tag")
                try container.viewContext.save()
            }
        }
        let renamed = ManagedObjectModel(entities: [
            Self.item(
                [Self.title, Self.count],
                relationships: [.toOne("label", destination: "Tag", inverse: "items", renamingIdentifier: "tag")]),
            tag([.toMany("items", destination: "Item", inverse: "label")]),
        ])
        do {
            let container = try Self.open(url, renamed)
            let label = try container.viewContext.performAndWait {
                (try container.viewContext.fetch(FetchRequest<Item>())[0].value(forKey: "label") as? ManagedObject)?
                    .value(forKey: "label") as? String
            }
            #expect(label == "red", "the link survived the rename")
        }
        let removed = ManagedObjectModel(entities: [Self.item([Self.title, Self.count]), tag([])])
        let container = try Self.open(url, removed)
        #expect(try Self.rows(container, ["title"]) == [["a"]])
        #expect(
            try PersistentStoreCoordinator.metadataForPersistentStore(at: url).entityVersionHashesByName
                == removed.entityVersionHashesByName)
    }

    /// A `.date` attribute whose values are all midnights (UTC) becomes a `.day` attribute as it
    /// is; one with a time of day anywhere is refused, naming it.
    @Test func aDateOfMidnightsBecomesADayAndADateWithATimeIsRefused() throws {
        for (seconds, migrates) in [
            ([0.0, 86_400 * 20_000, -86_400 * 3], true), ([86_400 * 20_000, 86_400 * 20_000 + 3_600], false),
        ] as [([Double], Bool)] {
            let dir = TemporaryDirectory()
            let url = dir.file("s.sqlite")
            let dated = ManagedObjectModel(entities: [
                Self.item([Self.title, AttributeDescription(name: "when", type: .date)])
            ])
            do {
                let container = try Self.open(url, dated)
                try container.viewContext.performAndWait {
                    for (index, value) in seconds.enumerated() {
                        let item = Item(context: container.viewContext)
                        item.setValue("\(index)", forKey: "title")
                        item.setValue(Date(timeIntervalSince1970: value), forKey: "when")
                    }
                    try container.viewContext.save()
                }
            }
            let daily = ManagedObjectModel(entities: [
                Self.item([Self.title, AttributeDescription(name: "when", type: .day)])
            ])
            if migrates {
                let container = try Self.open(url, daily)
                let days = try container.viewContext.performAndWait {
                    try container.viewContext.fetch(FetchRequest<Item>()).compactMap {
                        $0.value(forKey: "when") as? Int
                    }.sorted()
                }
                #expect(days == [-3, 0, 20_000])
            } else {
                #expect {
                    _ = try Self.open(url, daily)
                } throws: { error in
                    "\(error)"
                        == "the store at \(url.path) cannot be migrated to this model: Item.when: 1 stored value has a time of day, which a calendar day cannot hold. Nothing was written"
                }
            }
        }
    }

    // MARK: Refused

    @Test func aTypeChangeIsRefusedNamingTheEntityAndPropertyAndNothingIsWritten() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let before = try Data(contentsOf: url)
        let model = ManagedObjectModel(entities: [
            Self.item([Self.title, AttributeDescription(name: "count", type: .string, isOptional: true)])
        ])
        #expect {
            _ = try Self.open(url, model)
        } throws: { error in
            "\(error)"
                == "the store at \(url.path) cannot be migrated to this model: Item.count: its type changed from integer64 to string, which a lightweight migration cannot convert. Nothing was written"
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try Self.rows(try Self.open(url, Self.base), ["title"]) == [["a"], ["b"], ["c"]])
    }

    @Test func aNewMandatoryAttributeWithoutADefaultIsRefused() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let before = try Data(contentsOf: url)
        let model = ManagedObjectModel(entities: [
            Self.item([Self.title, Self.count, AttributeDescription(name: "owner", type: .string)])
        ])
        #expect {
            _ = try Self.open(url, model)
        } throws: { error in
            "\(error)"
                == "the store at \(url.path) cannot be migrated to this model: Item.owner: it is new, not optional and has no default, so the stored rows would have no value for it. Nothing was written"
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aUniquenessConstraintTheRowsBreakIsRefusedAndRolledBack() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        do {
            // Two rows with the same count.
            let container = try Self.open(url, Self.base)
            try container.viewContext.performAndWait {
                let item = Item(context: container.viewContext)
                item.setValue("d", forKey: "title")
                item.setValue(Int64(3), forKey: "count")
                try container.viewContext.save()
            }
        }
        let model = ManagedObjectModel(entities: [Self.item([Self.title, Self.count], unique: [["count"]])])
        #expect {
            _ = try Self.open(url, model)
        } throws: { error in
            "\(error)"
                == "the store at \(url.path) cannot be migrated to this model: Item.count: the stored rows break the uniqueness constraint on (count). Nothing was written"
        }
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
        #expect(Self.base.isConfiguration(compatibleWithStoreMetadata: metadata), "the transaction rolled back")
        #expect(try Self.rows(try Self.open(url, Self.base), ["title"]).count == 4)
    }

    @Test func withMigrationTurnedOffAnEarlierModelsStoreIsRefused() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let model = ManagedObjectModel(entities: [
            Self.item([Self.title, Self.count, AttributeDescription(name: "note", type: .string, isOptional: true)])
        ])
        for option in [
            \PersistentStoreDescription.shouldMigrateStoreAutomatically, \.shouldInferMappingModelAutomatically,
        ] {
            #expect {
                _ = try Self.open(url, model) { $0[keyPath: option] = false }
            } throws: { error in
                "\(error)"
                    == "the store at \(url.path) was made by an incompatible model, so it was left untouched: the model has attribute Item.note (string, optional), the store does not"
            }
        }
    }

    @Test func aReadOnlyOpenOfAStoreThatNeedsMigratingSaysSoAndLeavesIt() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        try Self.makeStore(url)
        let model = ManagedObjectModel(entities: [
            Self.item([Self.title, Self.count, AttributeDescription(name: "note", type: .string, isOptional: true)])
        ])
        #expect {
            _ = try Self.open(url, model) { $0.isReadOnly = true }
        } throws: { error in
            "\(error)"
                == "the store at \(url.path) was made by an earlier model and must be migrated (adds Item.note), which a read-only open cannot do; open it for writing once. It was left untouched"
        }
        #expect(
            Self.base.isConfiguration(
                compatibleWithStoreMetadata: try PersistentStoreCoordinator.metadataForPersistentStore(at: url)))
    }

    // MARK: Killed in the middle

    static var helper: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "managedstore-migration-helper")
    }

    /// A migration that copies 150,000 rows, killed with SIGKILL at seeded moments: afterwards
    /// the store is the old one, whole (every row, same values), or the migrated one, whole.
    @Test func aMigrationKilledAtAnyMomentLeavesTheOldStoreOrTheNewOneNeverABrokenOne() throws {
        let dir = TemporaryDirectory()
        let original = dir.file("original.sqlite")
        let made = try SpawnedProcess.run(Self.helper, ["create", original.path, "150000"], timeout: 120)
        #expect(made.status == 0, "\(made.err)")
        let v1 = try SpawnedProcess.run(Self.helper, ["check", original.path])
        let parts = v1.out.split(separator: " ").map(String.init)
        #expect(parts.count == 3 && parts[0] == "v1" && parts[1] == "150000", "\(v1.out) \(v1.err)")
        // How long a whole migration takes here, to spread the kills over it.
        let whole = dir.file("whole.sqlite")
        try FileManager.default.copyItem(at: original, to: whole)
        let full = try SpawnedProcess.run(Self.helper, ["migrate", whole.path], timeout: 120)
        #expect(full.status == 0, "\(full.err)")
        let after = try SpawnedProcess.run(Self.helper, ["check", whole.path])
        #expect(after.out.hasPrefix("v2 150000 \(parts[2])"), "migrated: \(after.out)")

        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "")
            ?? UInt64(Date().timeIntervalSince1970)
        var generator = SeededGenerator(seed: seed)
        var outcomes: [String: Int] = [:]
        for round in 0..<8 {
            let copy = dir.file("kill-\(round).sqlite")
            try FileManager.default.copyItem(at: original, to: copy)
            let delay = Double.random(in: 0...(full.seconds * 1.1), using: &generator)
            let running = try SpawnedProcess.Running(Self.helper, ["migrate", copy.path])
            Thread.sleep(forTimeInterval: delay)
            running.kill()
            _ = try running.wait()
            let check = try SpawnedProcess.run(Self.helper, ["check", copy.path])
            let found = check.out.split(separator: " ").map(String.init)
            #expect(
                found.count == 3 && ["v1", "v2"].contains(found[0]) && found[1] == "150000" && found[2] == parts[2],
                "seed \(seed), round \(round), killed after \(delay) s: \(check.out) \(check.err)")
            outcomes[found.first ?? "?", default: 0] += 1
        }
        print("migration kills (seed \(seed)): \(outcomes)")
    }
}
