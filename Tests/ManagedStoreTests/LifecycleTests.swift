import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

final class Folder: ManagedObject {
    @Attribute var name: String
    @Relationship var files: Set<File>

    override func prepareForDeletion() {
        super.prepareForDeletion()
        LifecycleTests.log.withLock { $0.append("folder \(name) with \(files.count) files") }
    }

    override func didSave() {
        super.didSave()
        LifecycleTests.saved.withLock { $0.append("Folder \(isDeleted ? "deleted" : "saved")") }
    }
}

final class File: ManagedObject {
    @Attribute var name: String
    @Relationship var folder: Folder?

    override func prepareForDeletion() {
        super.prepareForDeletion()
        LifecycleTests.log.withLock { $0.append("file \(name) in \(folder?.name ?? "no folder")") }
    }

    override func didSave() {
        super.didSave()
        LifecycleTests.saved.withLock { $0.append("File \(isDeleted ? "deleted" : "saved")") }
    }
}

/// The life-cycle methods a managed object subclass overrides, as Core Data documents them.
@Suite(.serialized) struct LifecycleTests {
    static let log = Mutex<[String]>([])
    /// What `didSave()` was told, in order.
    static let saved = Mutex<[String]>([])

    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Folder", managedObjectClass: Folder.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [.toMany("files", destination: "File", inverse: "folder", deleteRule: .cascade)]),
        EntityDescription(
            name: "File", managedObjectClass: File.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [.toOne("folder", destination: "Folder", inverse: "files", deleteRule: .nullify)]),
    ])

    /// Core Data's `didSave()`: "the sense of 'save' in the method name is that of a database
    /// commit statement and so applies to deletions as well as to updates to objects"
    /// (developer.apple.com, NSManagedObject/didSave()). So every object a save wrote is told:
    /// inserted, updated, and deleted (a cascade's too), and an unchanged one is not.
    @Test func didSaveComesForInsertionsUpdatesAndDeletions() throws {
        let container = try makeContainer(in: nil, name: "Lifecycle", model: Self.model)
        let context = container.viewContext
        try context.performAndWait {
            Self.saved.withLock { $0 = [] }
            let folder = Folder(context: context)
            folder.name = "f"
            for name in ["a", "b"] {
                let file = File(context: context)
                file.name = name
                file.folder = folder
            }
            try context.save()
            #expect(Self.saved.withLock { $0.sorted() } == ["File saved", "File saved", "Folder saved"])
            Self.saved.withLock { $0 = [] }
            folder.name = "g"
            try context.save()
            #expect(Self.saved.withLock { $0 } == ["Folder saved"])
            Self.saved.withLock { $0 = [] }
            context.delete(folder)  // its files by the cascade
            try context.save()
            #expect(Self.saved.withLock { $0.count } == 3, "\(Self.saved.withLock { $0 })")
            #expect(Self.saved.withLock { $0.filter { $0.hasPrefix("Folder") }.count } == 1)
        }
    }

    /// Core Data's `prepareForDeletion()`: "Provides an opportunity to add code into the life
    /// cycle of the managed object before deleting it … such as custom propagation before
    /// relationships are torn down" (developer.apple.com, NSManagedObject/prepareForDeletion()).
    /// So it is told once per deleted object, with its relationships still in place, and an
    /// object a cascade deletes is told too.
    @Test func prepareForDeletionComesOnceBeforeTheRelationshipsAreTornDown() throws {
        let container = try makeContainer(in: nil, name: "Lifecycle", model: Self.model)
        let context = container.viewContext
        try context.performAndWait {
            Self.log.withLock { $0 = [] }
            let folder = Folder(context: context)
            folder.name = "f"
            for name in ["a", "b", "c"] {
                let file = File(context: context)
                file.name = name
                file.folder = folder
            }
            try context.save()
            let c = folder.files.first { $0.name == "c" }!
            context.delete(c)
            #expect(Self.log.withLock { $0 } == ["file c in f"], "told with its folder still set")
            #expect(folder.files.map(\.name).sorted() == ["a", "b"], "then nullified")
            context.delete(c)
            #expect(Self.log.withLock { $0.count } == 1, "once")

            context.delete(folder)
            let lines = Self.log.withLock { $0 }
            #expect(lines.count == 4 && lines[1] == "folder f with 2 files", "\(lines)")
            #expect(
                lines[2...].sorted() == ["file a in f", "file b in f"], "a cascade tells each file, folder still set")
            try context.save()
            #expect(try context.count(for: FetchRequest<File>()) == 0)
        }
    }

    /// Core Data's `shouldDeleteInaccessibleFaults` (default true): a fault whose row another
    /// context deleted becomes, when fired, an object whose "attributes … are all set to nil
    /// or 0", whose "isDeleted property is set to true, which adds the object to the context's
    /// deletedObjects set", that "is exempt from validation rules" and that "the context
    /// discards … when you next call save() or reset()" (developer.apple.com,
    /// NSManagedObjectContext/shouldDeleteInaccessibleFaults).
    @Test(arguments: [false, true]) func anInaccessibleFaultBecomesADeletedObject(thenReset: Bool) throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["gone"], into: container)
        let reader = container.newBackgroundContext()
        let deleter = container.newBackgroundContext()
        #expect(reader.performAndWait { reader.shouldDeleteInaccessibleFaults }, "true by default")
        let id = try deleter.performAndWait { () throws -> ManagedObjectID in
            let note = try deleter.fetch(FetchRequest<Note>())[0]
            return note.objectID
        }
        try reader.performAndWait {
            let note = reader.object(with: id) as! Note
            #expect(note.isFault)
            try deleter.performAndWait {
                deleter.delete(deleter.object(with: id))
                try deleter.save()
            }
            #expect(note.title == "" && note.body == nil && note.stars == 0 && note.price == nil)
            #expect(note.isDeleted && reader.deletedObjects.contains(note))
            let other = Note(context: reader)
            other.title = "kept"
            if thenReset {
                reader.reset()
                #expect(reader.deletedObjects.isEmpty && reader.insertedObjects.isEmpty)
            } else {
                try reader.save()
                #expect(reader.deletedObjects.isEmpty && note.managedObjectContext == nil, "discarded")
            }
        }
        let titles = try deleter.performAndWait {
            try deleter.fetch(FetchRequest<Note>()).map(\.title)
        }
        #expect(titles == (thenReset ? [] : ["kept"]), "nothing else written")
    }

    /// Core Data's `changedValuesForCurrentEvent()`: "the keys and old values of persistent
    /// properties that have changed since the last posting of
    /// NSManagedObjectContextObjectsDidChange" (developer.apple.com, NSManagedObject): an
    /// observer of that notification reads the event's changes; after it, the event is over.
    @Test func changedValuesForCurrentEventAreTheEventsOldValues() throws {
        let container = try makeContainer(in: nil)
        let context = container.viewContext
        let seen = Mutex<[String: AttributeValue]?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: context, queue: nil
        ) { notification in
            let updated =
                notification.userInfo?[ManagedObjectContext.NotificationKey.updatedObjects.rawValue]
                as? Set<ManagedObject> ?? []
            // (Posted on the context's queue, where its objects may be read.)
            let values = updated.first?.changedValuesForCurrentEvent()
            seen.withLock { $0 = values }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            let note = Note(context: context)
            note.title = "a"
            try context.save()
            #expect(note.changedValuesForCurrentEvent().isEmpty)
            note.title = "b"
            note.stars = 5
            note.title = "c"
            #expect(note.changedValuesForCurrentEvent() == ["title": .string("a"), "stars": .integer(0)], "old values")
            context.processPendingChanges()
            #expect(seen.withLock { $0 } == ["title": .string("a"), "stars": .integer(0)], "what the observer read")
            #expect(note.changedValuesForCurrentEvent().isEmpty, "the event is over")
            #expect(
                note.changedValues() == ["title": .string("c"), "stars": .integer(5)],
                "changedValues still counts from the save")
            note.title = "d"
            #expect(note.changedValuesForCurrentEvent() == ["title": .string("c")])
        }
    }

    /// Core Data's `stalenessInterval` is "the maximum length of time that may have elapsed
    /// since the store previously fetched data before fulfilling a fault issues a new fetch";
    /// ManagedStore keeps no row cache, so a fault is fulfilled from the store as it is then,
    /// whatever interval is set: within any bound.
    @Test func aFaultReadsTheStoreAsItIsWhateverTheStalenessInterval() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a"], into: container)
        let reader = container.newBackgroundContext()
        let writer = container.newBackgroundContext()
        try reader.performAndWait {
            #expect(reader.stalenessInterval < 0, "no limit by default")
            reader.stalenessInterval = 3600
            let note = try reader.fetch(FetchRequest<Note>())[0]
            let id = note.objectID
            reader.refresh(note, mergeChanges: false)
            try writer.performAndWait {
                (writer.object(with: id) as! Note).stars = 9
                try writer.save()
            }
            #expect(note.isFault && note.stars == 9)
        }
    }
}
