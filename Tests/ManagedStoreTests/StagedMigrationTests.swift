import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// Staged migration as Core Data documents it: `NSStagedMigrationManager` "contains the
/// individual stages of a migration and applies those stages, in the order you specify";
/// `NSLightweightMigrationStage` is "a series of models suitable for lightweight migration",
/// named by version checksums; `NSCustomMigrationStage` runs `willMigrateHandler` "before the
/// stage runs" and `didMigrateHandler` "after", each reaching the store through the manager's
/// `container` (developer.apple.com, Core Data, Staged migration).
@Suite struct StagedMigrationTests {
    /// The generic entity of these tests: values by key.
    static func model(_ fields: [(name: String, type: AttributeType, renamed: String?)]) -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item", managedObjectClass: ManagedObject.self,
                attributes: [AttributeDescription(name: "key", type: .integer64)]
                    + fields.map {
                        AttributeDescription(
                            name: $0.name, type: $0.type, isOptional: true, renamingIdentifier: $0.renamed)
                    },
                uniquenessConstraints: [["key"]])
        ])
    }

    static func reference(_ model: ManagedObjectModel) -> ManagedObjectModelReference {
        ManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum)
    }

    static func open(
        _ url: URL, _ model: ManagedObjectModel, _ manager: StagedMigrationManager? = nil
    ) throws
        -> PersistentContainer
    {
        let container = PersistentContainer(name: "Staged", managedObjectModel: model)
        var description = PersistentStoreDescription(url: url)
        description.stagedMigrationManager = manager
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// The rows, by key: each attribute's value.
    static func rows(_ container: PersistentContainer) throws -> [Int64: [String: AttributeValue]] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var result: [Int64: [String: AttributeValue]] = [:]
            let entity = container.managedObjectModel.entities[0]
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
                var values: [String: AttributeValue] = [:]
                for attribute in entity.attributes where attribute.name != "key" {
                    values[attribute.name] = object.committedValues(forKeys: [attribute.name])[attribute.name] ?? .null
                }
                guard case .integer(let key) = object.committedValues(forKeys: ["key"])["key"] else { continue }
                result[key] = values
            }
            return result
        }
    }

    /// A change inference refuses (an attribute's type), made in three versions: a custom stage
    /// to a version with a new attribute, whose didMigrateHandler converts the old one into it;
    /// then a lightweight stage that drops the old one and renames the new one to its name. A store two versions behind runs both,
    /// in order, the handlers seeing the store at the stage's versions.
    @Test func aCustomStageConvertsWhatInferenceCannot() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("staged.sqlite")
        let v1 = Self.model([("amount", .string, nil)])
        let v2 = Self.model([("amount", .string, nil), ("amountValue", .integer64, nil)])
        let v3 = Self.model([("amount", .integer64, "amountValue")])
        do {
            let container = try Self.open(url, v1)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for (key, amount) in [(1, "12"), (2, "345"), (3, "6")] {
                    let item = ManagedObject(entity: v1.entities[0], insertInto: context)
                    item.setValue(Int64(key), forKey: "key")
                    item.setValue(amount, forKey: "amount")
                }
                try context.save()
            }
        }
        // Inference alone refuses it (amount: string to integer).
        #expect {
            _ = try Self.open(url, v3)
        } throws: { error in
            "\(error)".contains("its type changed from string to integer64")
        }

        let order = Mutex<[String]>([])
        let stage = CustomMigrationStage(migratingFrom: Self.reference(v1), to: Self.reference(v2))
        stage.label = "amount becomes a number"
        stage.willMigrateHandler = { manager, current in
            order.withLock {
                $0.append("will \(manager.container?.managedObjectModel === current.currentModel.resolvedModel)")
            }
        }
        stage.didMigrateHandler = { manager, current in
            let container = try #require(manager.container)
            order.withLock { $0.append("did \(container.managedObjectModel === current.nextModel.resolvedModel)") }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
                    item.setValue(Int64(item.value(forKey: "amount") as! String)!, forKey: "amountValue")
                }
                try context.save()
            }
        }
        let manager = StagedMigrationManager([
            stage, LightweightMigrationStage([Self.reference(v2), Self.reference(v3)]),
        ])
        let container = try Self.open(url, v3, manager)
        #expect(order.withLock { $0 } == ["will true", "did true"])
        #expect(manager.container == nil, "only while a handler runs")
        let rows = try Self.rows(container)
        #expect(rows == [1: ["amount": .integer(12)], 2: ["amount": .integer(345)], 3: ["amount": .integer(6)]])
    }

    /// A handler that throws undoes the whole migration, its own saves and the stages before
    /// it included: the store is as it was, and the error names the stage.
    @Test func aHandlerThatThrowsLeavesTheStoreAsItWas() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("staged.sqlite")
        let v1 = Self.model([("a", .string, nil)])
        let v2 = Self.model([("a", .string, nil), ("b", .string, nil)])
        let v3 = Self.model([("b", .string, nil), ("c", .integer64, nil)])
        do {
            let context = try Self.open(url, v1).newBackgroundContext()
            try context.performAndWait {
                let item = ManagedObject(entity: v1.entities[0], insertInto: context)
                item.setValue(Int64(1), forKey: "key")
                item.setValue("x", forKey: "a")
                try context.save()
            }
        }
        struct Refused: Error {}
        let stage = CustomMigrationStage(migratingFrom: Self.reference(v2), to: Self.reference(v3))
        stage.label = "fill c"
        stage.willMigrateHandler = { manager, _ in
            // A save that the failure must undo too.
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
                    item.setValue("y", forKey: "b")
                }
                try context.save()
            }
            throw Refused()
        }
        let manager = StagedMigrationManager([
            LightweightMigrationStage([Self.reference(v1), Self.reference(v2)]), stage,
        ])
        do {
            _ = try Self.open(url, v3, manager)
            Issue.record("the migration should have failed")
        } catch let error as ManagedStoreError {
            #expect("\(error)".contains("stage fill c") && "\(error)".contains("Refused"), "\(error)")
        }
        #expect(try Self.rows(try Self.open(url, v1)) == [1: ["a": .string("x")]], "the version-1 store, whole")
    }

    /// A store whose version no stage names, and stages that do not reach the model, are
    /// refused before anything is written.
    @Test func aStoreNoStageNamesIsRefused() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("staged.sqlite")
        let v1 = Self.model([("a", .string, nil)])
        let v2 = Self.model([("a", .string, nil), ("b", .string, nil)])
        let v3 = Self.model([("b", .string, nil)])
        _ = try Self.open(url, v1)
        let unrelated = StagedMigrationManager([LightweightMigrationStage([Self.reference(v2), Self.reference(v3)])])
        #expect {
            _ = try Self.open(url, v3, unrelated)
        } throws: { error in
            "\(error)".contains("is not one the stages migrate from")
        }
        let short = StagedMigrationManager([LightweightMigrationStage([Self.reference(v1), Self.reference(v2)])])
        #expect {
            _ = try Self.open(url, v3, short)
        } throws: { error in
            "\(error)".contains("not at the model's")
        }
        #expect(try Self.rows(try Self.open(url, v1)).isEmpty)
    }

    /// A staged migration whose handler saves 150,000 rows, killed at seeded moments: the
    /// store is the old one, whole, or the new one with every row's note (never half).
    @Test func aStagedMigrationKilledAtAnyMomentLeavesTheOldStoreOrTheNewOne() throws {
        let dir = TemporaryDirectory()
        let helper = MigrationTests.helper
        let original = dir.file("original.sqlite")
        let made = try SpawnedProcess.run(helper, ["create", original.path, "150000"], timeout: 120)
        #expect(made.status == 0, "\(made.err)")
        let v1 = try SpawnedProcess.run(helper, ["check", original.path]).out.split(separator: " ").map(String.init)
        let whole = dir.file("whole.sqlite")
        try FileManager.default.copyItem(at: original, to: whole)
        let full = try SpawnedProcess.run(helper, ["staged-migrate", whole.path], timeout: 180)
        #expect(full.status == 0, "\(full.err)")
        #expect(try SpawnedProcess.run(helper, ["notes", whole.path]).out == "150000\n")

        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "")
            ?? UInt64(Date().timeIntervalSince1970)
        var generator = SeededGenerator(seed: seed)
        var outcomes: [String: Int] = [:]
        for round in 0..<6 {
            let copy = dir.file("kill-\(round).sqlite")
            try FileManager.default.copyItem(at: original, to: copy)
            let delay = Double.random(in: 0...(full.seconds * 1.1), using: &generator)
            let running = try SpawnedProcess.Running(helper, ["staged-migrate", copy.path])
            Thread.sleep(forTimeInterval: delay)
            running.kill()
            _ = try running.wait()
            let check = try SpawnedProcess.run(helper, ["check", copy.path])
            let found = check.out.split(separator: " ").map(String.init)
            let context = "seed \(seed), round \(round), killed after \(delay) s: \(check.out) \(check.err)"
            #expect(found.count == 3 && found[1] == v1[1] && found[2] == v1[2], "\(context)")
            if found.first == "v2" {
                #expect(try SpawnedProcess.run(helper, ["notes", copy.path]).out == "150000\n", "\(context)")
            } else {
                #expect(found.first == "v1", "\(context)")
            }
            outcomes[found.first ?? "?", default: 0] += 1
        }
        print("staged migration kills (seed \(seed)): \(outcomes)")
    }
}
