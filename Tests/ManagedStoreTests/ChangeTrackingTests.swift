import Foundation
import ManagedStore
import Synchronization
import Testing

/// Round two of Core Data's documented change tracking: what `isUpdated` means, what a save's
/// notifications carry, and what a merge reports.
@MainActor @Suite struct ChangeTrackingTests {
    /// Core Data: "The receiver has unsaved changes if it has been updated since its managed
    /// object context was last saved" (`isUpdated`), and `hasChanges` ORs `isInserted`,
    /// `isDeleted` and `isUpdated`; `hasPersistentChangedValues` is the call that compares values.
    @Test func anAttributeSetBackToItsSavedValueLeavesTheObjectUpdatedUntilTheSave() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let note = try view.fetch(FetchRequest<Note>())[0]
        #expect(!note.isUpdated && !note.hasPersistentChangedValues)

        note.stars = 4
        #expect(note.isUpdated && note.hasPersistentChangedValues)
        note.stars = 0
        #expect(note.isUpdated, "set back to its saved value: still updated, as in Core Data")
        #expect(note.hasChanges)
        #expect(view.hasChanges)
        #expect(view.updatedObjects == [note])
        #expect(!note.hasPersistentChangedValues, "the values are the saved ones")
        #expect(note.changedValues().isEmpty)

        try view.save()
        #expect(!note.isUpdated && !note.hasChanges && !view.hasChanges)
    }

    @Test func rollbackAndRefreshClearUpdated() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let note = try view.fetch(FetchRequest<Note>())[0]
        note.stars = 3
        note.stars = 0
        view.rollback()
        #expect(!note.isUpdated && !view.hasChanges)
        note.stars = 3
        view.refresh(note, mergeChanges: false)
        #expect(!note.isUpdated && !view.hasChanges)
        #expect(note.stars == 0)
    }

    @Test func anInsertedObjectHasPersistentChangedValues() throws {
        let container = try makeContainer(in: nil)
        let note = Note(context: container.viewContext)
        #expect(note.hasPersistentChangedValues)
        #expect(!note.isUpdated, "inserted, not updated")
    }

    /// Core Data: didSave's userInfo holds the inserted, updated and deleted *objects*;
    /// didSaveObjectIDs (posted too) holds their IDs. Either can be merged.
    @Test func didSaveCarriesTheObjectsAndDidSaveObjectIDsTheirIDs() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["old", "gone"], into: container)
        let worker = container.newBackgroundContext()
        struct Seen: Sendable {
            var objectNames: [String] = []
            var objectKinds: [String] = []
            var idKeys: [String] = []
            var idCounts: [Int] = []
        }
        let seen = Mutex(Seen())
        let names = [ManagedObjectContext.didSaveNotification, ManagedObjectContext.didSaveObjectIDsNotification]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: worker, queue: nil) { note in
                let info = note.userInfo ?? [:]
                if note.name == ManagedObjectContext.didSaveNotification {
                    // Delivered on the saving context's queue: its objects may be touched here.
                    let inserted =
                        info[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject> ?? []
                    let updated =
                        info[ManagedObjectContext.NotificationKey.updatedObjects.rawValue] as? Set<ManagedObject> ?? []
                    let deleted =
                        info[ManagedObjectContext.NotificationKey.deletedObjects.rawValue] as? Set<ManagedObject> ?? []
                    let kinds = ["inserted \(inserted.count)", "updated \(updated.count)", "deleted \(deleted.count)"]
                    let titles =
                        inserted.compactMap { ($0 as? Note)?.title } + updated.compactMap { ($0 as? Note)?.title }
                    seen.withLock {
                        $0.objectNames = titles.sorted(); $0.objectKinds = kinds
                    }
                } else {
                    let keys = [
                        ManagedObjectContext.NotificationKey.insertedObjectIDs, .updatedObjectIDs, .deletedObjectIDs,
                    ]
                    let counts = keys.map { (info[$0.rawValue] as? Set<ManagedObjectID>)?.count ?? -1 }
                    let hasObjects = info[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] != nil
                    seen.withLock {
                        $0.idCounts = counts; $0.idKeys = hasObjects ? ["objects"] : ["ids only"]
                    }
                }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try await worker.perform {
            let notes = try worker.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
            notes[1].stars = 9  // "old"
            worker.delete(notes[0])  // "gone"
            let new = Note(context: worker)
            new.title = "new"
            try worker.save()
        }
        let result = seen.withLock { $0 }
        #expect(result.objectKinds == ["inserted 1", "updated 1", "deleted 1"])
        #expect(result.objectNames == ["new", "old"])
        #expect(result.idCounts == [1, 1, 1])
        #expect(result.idKeys == ["ids only"])
    }

    @Test func eitherSaveNotificationMergesIntoAnotherContext() async throws {
        for name in [ManagedObjectContext.didSaveNotification, ManagedObjectContext.didSaveObjectIDsNotification] {
            let container = try makeContainer(in: nil)
            try await insertNotes(["a"], into: container)
            let view = container.viewContext
            let held = try view.fetch(FetchRequest<Note>())[0]
            let worker = container.newBackgroundContext()
            let captured = Mutex<ContextSaveChanges?>(nil)
            let observer = NotificationCenter.default.addObserver(forName: name, object: worker, queue: nil) { note in
                captured.withLock { $0 = ContextSaveChanges(note) }
            }
            let id = held.objectID
            try await worker.perform {
                let note = try worker.existingObject(with: id) as! Note
                note.stars = 6
                try worker.save()
            }
            NotificationCenter.default.removeObserver(observer)
            let changes = try #require(captured.withLock { $0 })
            view.mergeChanges(fromContextDidSave: changes)
            #expect(held.stars == 6, "merged from \(name.rawValue)")
        }
    }

    /// Core Data lists the objects another context inserted under `NSInsertedObjectsKey` of the
    /// objectsDidChange that a merge posts (live result lists depend on it).
    @Test func aMergePostsTheOtherContextsInsertedObjectsAsInserted() async throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let worker = container.newBackgroundContext()
        let captured = Mutex<ContextSaveChanges?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDsNotification,
            object: worker, queue: nil
        ) { note in
            captured.withLock { $0 = ContextSaveChanges(note) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try await worker.perform {
            for title in ["x", "y"] {
                let note = Note(context: worker)
                note.title = title
            }
            try worker.save()
        }
        let changes = try #require(captured.withLock { $0 })
        final class Box: @unchecked Sendable {  // written and read on the main thread only (the merge posts there)
            var inserted: Set<ManagedObject> = []
        }
        let box = Box()
        let didChange = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification,
            object: view, queue: nil
        ) { note in
            box.inserted =
                note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
                ?? []
        }
        defer { NotificationCenter.default.removeObserver(didChange) }
        view.mergeChanges(fromContextDidSave: changes)
        let inserted = box.inserted
        let faults = inserted.filter { $0.isFault }.count
        #expect(faults == inserted.count, "faulted in, as Core Data does")
        #expect(Set(inserted.compactMap { ($0 as? Note)?.title }) == ["x", "y"])
        #expect(Set(inserted.map(\.objectID)) == changes.insertedObjectIDs)
        for object in inserted {
            #expect(object.managedObjectContext === view)
            #expect(!object.isInserted && !object.hasChanges, "registered with its saved values, not pending")
            #expect(view.registeredObject(for: object.objectID) === object)
        }
        #expect(!view.hasChanges)
    }
}
