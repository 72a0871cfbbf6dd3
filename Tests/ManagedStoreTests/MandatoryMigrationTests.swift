import Foundation
import ManagedStore
import TestSupport
import Testing

/// Apple's own example for `NSCustomMigrationStage`: "to support a migration that changes an
/// optional attribute to be nonoptional, you might assign a handler to the stage's
/// willMigrateHandler property that sets any nil instances of that attribute to a default
/// value, thereby ensuring the migration succeeds." The rows are judged after the handler, in
/// the same transaction: a row still without a value fails the migration, naming its object,
/// and nothing is changed.
@Suite struct MandatoryMigrationTests {
    static let v1 = StagedMigrationTests.model([("nickname", .string, nil)])
    static let v2 = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Item", managedObjectClass: ManagedObject.self,
            attributes: [
                AttributeDescription(name: "key", type: .integer64),
                AttributeDescription(name: "nickname", type: .string, isOptional: false),
            ],
            uniquenessConstraints: [["key"]])
    ])

    /// A store of version 1 with three items, the second and third without a nickname.
    static func store(in dir: TemporaryDirectory) throws -> URL {
        let url = dir.file("staged.sqlite")
        let context = try StagedMigrationTests.open(url, v1).newBackgroundContext()
        try context.performAndWait {
            for (key, nickname) in [(1, "one"), (2, nil), (3, nil)] as [(Int64, String?)] {
                let item = ManagedObject(entity: v1.entities[0], insertInto: context)
                item.setValue(key, forKey: "key")
                item.setValue(nickname, forKey: "nickname")
            }
            try context.save()
        }
        return url
    }

    /// A stage whose willMigrateHandler gives a nickname to the items without one, except
    /// those whose key is in `sparing`.
    static func stage(sparing: Set<Int64> = []) -> CustomMigrationStage {
        let stage = CustomMigrationStage(
            migratingFrom: StagedMigrationTests.reference(v1), to: StagedMigrationTests.reference(v2))
        stage.label = "nickname becomes mandatory"
        stage.willMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
                    let key = item.value(forKey: "key") as! Int64
                    if item.value(forKey: "nickname") == nil && !sparing.contains(key) {
                        item.setValue("item \(key)", forKey: "nickname")
                    }
                }
                try context.save()
            }
        }
        return stage
    }

    @Test func aWillMigrateHandlerThatFillsTheNilsLetsTheAttributeBecomeMandatory() throws {
        let dir = TemporaryDirectory()
        let url = try Self.store(in: dir)
        // Lightweight inference alone refuses it, before anything is written.
        #expect {
            _ = try StagedMigrationTests.open(url, Self.v2)
        } throws: { "\($0)".contains("it became mandatory without a default") }
        let container = try StagedMigrationTests.open(url, Self.v2, StagedMigrationManager([Self.stage()]))
        #expect(
            try StagedMigrationTests.rows(container) == [
                1: ["nickname": .string("one")], 2: ["nickname": .string("item 2")], 3: ["nickname": .string("item 3")],
            ])
    }

    @Test func aRowTheHandlerLeftNilFailsTheMigrationNamingItsObjectAndChangesNothing() throws {
        let dir = TemporaryDirectory()
        let url = try Self.store(in: dir)
        do {
            _ = try StagedMigrationTests.open(url, Self.v2, StagedMigrationManager([Self.stage(sparing: [3])]))
            Issue.record("the migration should have failed")
        } catch let error as ManagedStoreError {
            let words = "\(error)"
            #expect(words.contains("stage nickname becomes mandatory"), "\(words)")
            #expect(words.contains("Item.nickname"), "\(words)")
            #expect(
                words.contains(#/the stored object x-managedstore://[0-9A-Fa-f-]+/Item/p3 has no value for it/#),
                "\(words)")
        }
        // Nothing changed: the version-1 store, the handler's saves undone too.
        #expect(
            try StagedMigrationTests.rows(try StagedMigrationTests.open(url, Self.v1)) == [
                1: ["nickname": .string("one")], 2: ["nickname": .null], 3: ["nickname": .null],
            ])
    }
}
