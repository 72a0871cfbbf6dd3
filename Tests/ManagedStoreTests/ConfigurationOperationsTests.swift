import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// The rest of the stack over two stores: batch requests, child contexts, a lightweight
/// migration of one configuration's store, derived attributes, and remote change
/// notifications, each reaching only the store of its entity.
@Suite struct ConfigurationOperationsTests {
    /// Core Data's batch requests go to the store of their entity; the other store's file is
    /// not touched.
    @Test func batchRequestsWriteTheStoreOfTheirEntity() throws {
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            Periodical(context: context).name = "Nature"
            try context.save()
        }
        let dump = {
            try PythonTools.run(
                "import sqlite3, sys; print('\\n'.join(sqlite3.connect(sys.stdin.read()).iterdump()))",
                input: Data(dir.file("catalogue.sqlite").path.utf8))
        }
        let catalogue = try dump()
        try context.performAndWait {
            try context.execute(
                BatchInsertRequest<Patron>(objects: ["Ada", "Grace", "Alan"].map { ["name": .string($0)] }))
            try context.execute(
                BatchUpdateRequest<Patron>(
                    predicate: #Predicate { $0.name == "Alan" }, propertiesToUpdate: ["name": .string("Barbara")]))
            try context.execute(BatchDeleteRequest(FetchRequest<Patron>(predicate: #Predicate { $0.name == "Grace" })))
        }
        let files = try TwoStoreModel.read(dir)
        #expect(files.patrons == ["Ada": [], "Barbara": []])
        #expect(files.periodicals == ["Nature": []])
        #expect(try dump() == catalogue, "the catalogue's every table, row and key is as it was")
    }

    /// A child context's save reaches both stores through its parent's save.
    @Test func aChildContextsChangesReachBothStoresThroughItsParent() throws {
        let dir = TemporaryDirectory()
        let container = try TwoStoreModel.container(in: dir)
        let parent = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        try child.performAndWait {
            let periodical = Periodical(context: child)
            periodical.name = "Nature"
            let fascicle = Fascicle(context: child)
            fascicle.code = "N1"
            fascicle.periodical = periodical
            let patron = Patron(context: child)
            patron.name = "Ada"
            try child.save()
        }
        #expect(try TwoStoreModel.read(dir).periodicals.isEmpty, "not before the parent saves")
        try parent.performAndWait { try parent.save() }
        let files = try TwoStoreModel.read(dir)
        #expect(files.periodicals == ["Nature": ["N1"]])
        #expect(files.patrons == ["Ada": []])
    }

    /// A model version that changes one configuration's entities migrates that store alone.
    @Test func aNewModelVersionMigratesOnlyTheStoreWhoseEntitiesChanged() throws {
        let dir = TemporaryDirectory()
        try TwoStoreModel.container(in: dir).persistentStoreCoordinator.persistentStores.forEach { _ in }
        let schema = """
            import sqlite3, sys
            for path in sys.stdin.read().split():
                print(sorted(r[0] for r in sqlite3.connect(path).execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")))
            """
        let paths = Data((dir.file("catalogue.sqlite").path + " " + dir.file("lending.sqlite").path).utf8)
        let before = String(decoding: try PythonTools.run(schema, input: paths), as: UTF8.self).split(separator: "\n")
        var entities = TwoStoreModel.entities()
        entities[2] = EntityDescription(
            name: "Patron", managedObjectClass: Patron.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "email", type: .string, isOptional: true),
            ],
            relationships: [.toMany("borrowings", destination: "Borrowing", inverse: "patron", deleteRule: .cascade)],
            uniquenessConstraints: [["name"]])
        let version2 = ManagedObjectModel(
            entities: entities,
            configurations: ["Catalogue": Array(entities[0...1]), "Lending": Array(entities[2...3])])
        let container = PersistentContainer(name: "TwoStores", managedObjectModel: version2)
        container.persistentStoreDescriptions = TwoStoreModel.descriptions(in: dir)
        try container.loadPersistentStores()
        let after = String(decoding: try PythonTools.run(schema, input: paths), as: UTF8.self).split(separator: "\n")
        #expect(after[0] == before[0], "the catalogue's schema is as it was")
        #expect(after[1] != before[1] && after[1].contains("email"), "the lending store has the new column")
    }

    /// A derived attribute's triggers are made in its entity's store, and keep its value there.
    @Test func aDerivedAttributeLivesInItsEntitysStore() throws {
        let dir = TemporaryDirectory()
        var entities = TwoStoreModel.entities()
        entities[2] = EntityDescription(
            name: "Patron", managedObjectClass: Patron.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "loans", type: .integer64, derivationExpression: "borrowings.@count"),
            ],
            relationships: [.toMany("borrowings", destination: "Borrowing", inverse: "patron", deleteRule: .cascade)],
            uniquenessConstraints: [["name"]])
        let model = ManagedObjectModel(
            entities: entities,
            configurations: ["Catalogue": Array(entities[0...1]), "Lending": Array(entities[2...3])])
        let container = PersistentContainer(name: "TwoStores", managedObjectModel: model)
        container.persistentStoreDescriptions = TwoStoreModel.descriptions(in: dir)
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        let loans = try context.performAndWait {
            let patron = Patron(context: context)
            patron.name = "Ada"
            for code in ["N1", "N2"] {
                let borrowing = Borrowing(context: context)
                borrowing.editionCode = code
                borrowing.patron = patron
            }
            Periodical(context: context).name = "Nature"
            try context.save()
            return patron.value(forKey: "loans") as? Int64
        }
        #expect(loans == 2)
        let triggers = try PythonTools.run(
            """
            import sqlite3, sys
            for path in sys.stdin.read().split():
                print(sqlite3.connect(path).execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").fetchone()[0])
            """, input: Data((dir.file("catalogue.sqlite").path + " " + dir.file("lending.sqlite").path).utf8))
        let counts = String(decoding: triggers, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(counts.count == 2 && counts[0] == 0 && counts[1] > 0, "\(counts)")
    }

    /// Core Data's `NSPersistentStoreRemoteChange` names the store that changed: each store of
    /// the coordinator is watched, and a commit to one is posted with its URL.
    @Test func eachStoreIsWatchedAndNamedByItsRemoteChanges() throws {
        let dir = TemporaryDirectory()
        let watcher = PersistentContainer(name: "TwoStores", managedObjectModel: TwoStoreModel.model)
        watcher.persistentStoreDescriptions = TwoStoreModel.descriptions(in: dir, history: true).map {
            var description = $0
            description.remoteChangeNotificationsEnabled = true
            description.remoteChangePollInterval = 0.02
            return description
        }
        try watcher.loadPersistentStores()
        let seen = Mutex<[String]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.persistentStoreRemoteChangeNotification,
            object: watcher.persistentStoreCoordinator, queue: nil
        ) { note in
            if let change = PersistentStoreRemoteChange(note) {
                seen.withLock { $0.append(change.storeURL.lastPathComponent) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let writer = try TwoStoreModel.container(in: dir, history: true)
        let context = writer.newBackgroundContext()
        try context.performAndWait {
            Patron(context: context).name = "Ada"
            try context.save()
        }
        #expect(Waiting.until(timeout: .seconds(5)) { seen.withLock { $0 } == ["lending.sqlite"] })
        try context.performAndWait {
            Periodical(context: context).name = "Nature"
            try context.save()
        }
        #expect(Waiting.until(timeout: .seconds(5)) { seen.withLock { $0 } == ["lending.sqlite", "catalogue.sqlite"] })
    }

    /// An object ID names its store: once that store is removed, the ID finds no object, and
    /// never a row of another file that holds the same entity; its URI (which names the store
    /// by the identifier its file keeps) finds the object when that file is added again.
    @Test func anIDOfARemovedStoreFindsOnlyThatFileAgain() throws {
        let dir = TemporaryDirectory()
        let descriptions = TwoStoreModel.descriptions(in: dir)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: TwoStoreModel.model)
        for description in descriptions { try coordinator.addPersistentStore(with: description) }
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        let ada = try context.performAndWait {
            let patron = Patron(context: context)
            patron.name = "Ada"
            try context.save()
            return patron.objectID
        }
        let uri = ada.uriRepresentation()
        try coordinator.remove(coordinator.persistentStores[1])
        var other = descriptions[1]
        other.url = dir.file("other-lending.sqlite")
        try coordinator.addPersistentStore(with: other)
        try context.performAndWait {
            let patron = Patron(context: context)
            patron.name = "Grace"  // the same key as Ada's in the other file
            try context.save()
            context.reset()
            #expect(throws: ManagedStoreError.self) { try context.existingObject(with: ada) }
        }
        try coordinator.remove(coordinator.persistentStores[1])
        try coordinator.addPersistentStore(with: descriptions[1])
        #expect(throws: ManagedStoreError.self) { try context.performAndWait { try context.existingObject(with: ada) } }
        let again = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
        let name = try context.performAndWait {
            context.reset()
            return (try context.existingObject(with: again) as? Patron)?.name
        }
        #expect(name == "Ada")
    }

    static func dump(_ url: URL) throws -> Data {
        try PythonTools.run(
            "import sqlite3, sys; print('\\n'.join(sqlite3.connect(sys.stdin.read()).iterdump()))",
            input: Data(url.path.utf8))
    }

    /// Core Data checks a store against its configuration's entities. A file that holds
    /// entities of another configuration (or of the whole model) is refused, word for word,
    /// and left as it was: never migrated to the configuration, which would drop their tables.
    @Test func aFileOfAnotherConfigurationIsRefusedAndLeftAsItWas() throws {
        let dir = TemporaryDirectory()
        let whole = try makeContainer(in: dir, name: "library", model: TwoStoreModel.model)
        let context = whole.newBackgroundContext()
        try context.performAndWait {
            Periodical(context: context).name = "Nature"
            Patron(context: context).name = "Ada"
            try context.save()
        }
        let library = dir.file("library.sqlite")
        let before = try Self.dump(library)
        var catalogue = PersistentStoreDescription(url: library)
        catalogue.configuration = "Catalogue"
        let coordinator = PersistentStoreCoordinator(managedObjectModel: TwoStoreModel.model)
        do {
            try coordinator.addPersistentStore(with: catalogue)
            Issue.record("the whole model's store was opened as the catalogue's")
        } catch {
            #expect(
                "\(error)"
                    == "the store at \(library.path) was made by an incompatible model, so it was left untouched: the store holds Patron, Borrowing, which configuration Catalogue does not: it is the store of another configuration, or of the whole model, and was left as it was"
            )
        }
        #expect(try Self.dump(library) == before)

        // Two configurations' files swapped by mistake: both refused, both untouched.
        _ = try TwoStoreModel.container(in: dir)
        let files = [dir.file("catalogue.sqlite"), dir.file("lending.sqlite")]
        let dumps = try files.map(Self.dump)
        for (configuration, file) in zip(["Lending", "Catalogue"], files) {
            var swapped = PersistentStoreDescription(url: file)
            swapped.configuration = configuration
            #expect(throws: ManagedStoreError.self) {
                try PersistentStoreCoordinator(managedObjectModel: TwoStoreModel.model).addPersistentStore(
                    with: swapped)
            }
        }
        #expect(try files.map(Self.dump) == dumps)
    }

    /// An object a context still holds from a removed store is not saved into the store added
    /// after it, where its key names another object: the save throws and writes nothing.
    @Test func anObjectOfARemovedStoreIsNotSavedIntoAnotherFile() throws {
        let dir = TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: TwoStoreModel.model)
        let first = try coordinator.addPersistentStore(with: PersistentStoreDescription(url: dir.file("a.sqlite")))
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        context.retainsRegisteredObjects = true
        try context.performAndWait {
            Patron(context: context).name = "Ada"
            try context.save()
        }
        try coordinator.remove(first)
        try coordinator.addPersistentStore(with: PersistentStoreDescription(url: dir.file("b.sqlite")))
        let other = ManagedObjectContext(concurrencyType: .privateQueue)
        other.persistentStoreCoordinator = coordinator
        try other.performAndWait {
            Patron(context: other).name = "Grace"  // key 1, as Ada's in a.sqlite
            try other.save()
        }
        let before = try Self.dump(dir.file("b.sqlite"))
        #expect(throws: ManagedStoreError.self) {
            try context.performAndWait {
                let ada = try #require(context.registeredObjects.compactMap { $0 as? Patron }.first)
                ada.name = "Ada Lovelace"
                try context.save()
            }
        }
        #expect(try Self.dump(dir.file("b.sqlite")) == before, "Grace is still Grace")
    }

    /// A save's changes pair each inserted object's temporary ID with its own row, also when
    /// a merge policy inserts again the row of an updated object another context deleted.
    @Test(arguments: [false, true])
    func temporaryIDsArePairedWithTheirOwnRows(twoStores: Bool) throws {
        let dir = TemporaryDirectory()
        let container =
            twoStores
            ? try TwoStoreModel.container(in: dir) : try makeContainer(in: dir, name: "one", model: TwoStoreModel.model)
        let saver = container.newBackgroundContext()
        saver.performAndWait {
            saver.mergePolicy = .mergeByPropertyObjectTrump
            saver.retainsRegisteredObjects = true
        }
        let nature = try saver.performAndWait {
            let periodical = Periodical(context: saver)
            periodical.name = "Nature"
            try saver.save()
            return periodical.objectID
        }
        let deleter = container.newBackgroundContext()
        try deleter.performAndWait {
            deleter.delete(try deleter.existingObject(with: nature))
            try deleter.save()
        }
        let seen = Mutex<ContextSaveChanges?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveNotification, object: saver, queue: nil
        ) { note in seen.withLock { $0 = ContextSaveChanges(note) } }
        defer { NotificationCenter.default.removeObserver(observer) }
        let (temporary, permanent) = try saver.performAndWait {
            let periodical = try #require(saver.registeredObjects.compactMap { $0 as? Periodical }.first)
            periodical.name = "Nature, again"  // its row was deleted: the policy inserts it again
            let patron = Patron(context: saver)
            patron.name = "Ada"
            let temporary = patron.objectID
            try saver.save()
            return (temporary, patron.objectID)
        }
        let changes = try #require(seen.withLock { $0 })
        #expect(changes.temporaryObjectIDs[temporary] == permanent)
        #expect(changes.temporaryObjectIDs[temporary]?.entity.name == "Patron")
    }
}
