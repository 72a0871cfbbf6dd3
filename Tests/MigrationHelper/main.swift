// A child process for ManagedStore's migration tests: it makes a store with model version 1,
// migrates one to version 2 (which renames an attribute, so every row is copied: a migration
// that takes long enough to be killed in the middle), and says which model a store fits.
//
//   managedstore-migration-helper create STORE ROWS
//   managedstore-migration-helper migrate STORE
//   managedstore-migration-helper staged-migrate STORE   (the same, as a custom stage whose
//                                     didMigrateHandler sets every row's note, 10,000 a save)
//   managedstore-migration-helper notes STORE     → how many rows have a note
//   managedstore-migration-helper check STORE     → "v1 ROWS CHECKSUM" or "v2 ROWS CHECKSUM"
//
// and, for the persistent history tests, writes a version-1 store with history tracking on, as
// another process would (author "helper"):
//
//   managedstore-migration-helper history-insert STORE PREFIX COUNT   (one save)
//   managedstore-migration-helper history-update STORE NAME AMOUNT
//   managedstore-migration-helper history-delete STORE NAME
import Foundation
import ManagedStore

final class Entry: ManagedObject {
    @Attribute var name: String
    @Attribute var amount: Int64
}

final class RenamedEntry: ManagedObject {
    @Attribute var label: String
    @Attribute var amount: Int64
    @Attribute var note: String?
}

let version1 = ManagedObjectModel(entities: [
    EntityDescription(
        name: "Entry", managedObjectClass: Entry.self,
        attributes: [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "amount", type: .integer64),
        ], uniquenessConstraints: [["name"]])
])

let version2 = ManagedObjectModel(entities: [
    EntityDescription(
        name: "Entry", managedObjectClass: RenamedEntry.self,
        attributes: [
            AttributeDescription(name: "label", type: .string, renamingIdentifier: "name"),
            AttributeDescription(name: "amount", type: .integer64),
            AttributeDescription(name: "note", type: .string, isOptional: true),
        ], uniquenessConstraints: [["label"]])
])

func container(_ path: String, _ model: ManagedObjectModel) throws -> PersistentContainer {
    let container = PersistentContainer(name: "Helper", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: path))]
    try container.loadPersistentStores()
    return container
}

func historyContext(_ path: String) throws -> ManagedObjectContext {
    let container = PersistentContainer(name: "Helper", managedObjectModel: version1)
    var description = PersistentStoreDescription(url: URL(fileURLWithPath: path))
    description.persistentHistoryTracking = true
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    let context = container.newBackgroundContext()
    context.transactionAuthor = "helper"
    context.name = "helper-\(getpid())"
    return context
}

func entry(named name: String, in context: ManagedObjectContext) throws -> Entry {
    var request = FetchRequest<Entry>(predicate: #Predicate { $0.name == name })
    request.fetchLimit = 1
    guard let entry = try context.fetch(request).first else {
        throw ManagedStoreError.unknownEntity("Entry named \(name)")
    }
    return entry
}

let arguments = CommandLine.arguments
do {
    switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
    case ("history-insert", 5):
        let context = try historyContext(arguments[2])
        try context.performAndWait {
            for index in 0..<(Int(arguments[4]) ?? 0) {
                let entry = Entry(context: context)
                entry.name = "\(arguments[3])\(index)"
                entry.amount = Int64(index)
            }
            try context.save()
        }
        print("inserted")
    case ("history-update", 5):
        let context = try historyContext(arguments[2])
        try context.performAndWait {
            try entry(named: arguments[3], in: context).amount = Int64(arguments[4]) ?? 0
            try context.save()
        }
        print("updated")
    case ("history-delete", 4):
        let context = try historyContext(arguments[2])
        try context.performAndWait {
            context.delete(try entry(named: arguments[3], in: context))
            try context.save()
        }
        print("deleted")
    case ("create", 4):
        let stack = try container(arguments[2], version1)
        let context = stack.newBackgroundContext()
        let rows = Int(arguments[3]) ?? 0
        try context.performAndWait {
            for start in stride(from: 0, to: rows, by: 10_000) {
                for index in start..<min(rows, start + 10_000) {
                    let entry = Entry(context: context)
                    entry.name = "entry \(index)"
                    entry.amount = Int64(index) * 7
                }
                try context.save()
                context.reset()
            }
        }
    case ("migrate", 3):
        _ = try container(arguments[2], version2)
        print("migrated")
    case ("staged-migrate", 3):
        let stage = CustomMigrationStage(
            migratingFrom: ManagedObjectModelReference(model: version1, versionChecksum: version1.versionChecksum),
            to: ManagedObjectModelReference(model: version2, versionChecksum: version2.versionChecksum))
        stage.didMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                var request = FetchRequest<RenamedEntry>(sortBy: [SortDescriptor(\.amount)])
                request.fetchLimit = 10_000
                while true {
                    let batch = try context.fetch(request)
                    if batch.isEmpty { break }
                    for entry in batch { entry.note = "was \(entry.label)" }
                    try context.save()
                    context.reset()
                    request.fetchOffset += 10_000
                }
            }
        }
        let stack = PersistentContainer(name: "Helper", managedObjectModel: version2)
        var description = PersistentStoreDescription(url: URL(fileURLWithPath: arguments[2]))
        description.stagedMigrationManager = StagedMigrationManager([stage])
        stack.persistentStoreDescriptions = [description]
        try stack.loadPersistentStores()
        print("migrated")
    case ("notes", 3):
        let context = try container(arguments[2], version2).newBackgroundContext()
        let count = try context.performAndWait {
            try context.count(for: FetchRequest<RenamedEntry>(predicate: #Predicate { $0.note != nil }))
        }
        print(count)
    case ("check", 3):
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: URL(fileURLWithPath: arguments[2]))
        let model =
            version1.isConfiguration(compatibleWithStoreMetadata: metadata)
            ? version1
            : version2.isConfiguration(compatibleWithStoreMetadata: metadata) ? version2 : nil
        guard let model else {
            print("neither")
            exit(1)
        }
        let context = try container(arguments[2], model).newBackgroundContext()
        let rows = try context.performAndWait { () throws -> [[AttributeValue]] in
            model === version1
                ? try context.fetchValues(FetchRequest<Entry>(), properties: ["name", "amount"])
                : try context.fetchValues(FetchRequest<RenamedEntry>(), properties: ["label", "amount"])
        }
        // Order-independent and deterministic across processes (unlike String.hashValue).
        var checksum: UInt64 = 0
        for row in rows {
            guard case .string(let name) = row[0], case .integer(let amount) = row[1] else { continue }
            checksum &+=
                name.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
                &+ UInt64(bitPattern: amount)
        }
        print(model === version1 ? "v1" : "v2", rows.count, checksum)
    default:
        FileHandle.standardError.write(
            Data("usage: managedstore-migration-helper create STORE ROWS | migrate STORE | check STORE\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
