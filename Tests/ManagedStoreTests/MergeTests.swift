import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// Behaviours 1 and 8: the viewContext sees background saves through fetches at once, and the
/// objects it holds change only by merging the didSave notification (or a refresh).
///
/// These run on the main actor, as a front-end does, so that they can hold the viewContext's
/// objects across awaits.
@MainActor @Suite struct MergeTests {
    @Test func backgroundSaveIsVisibleToAViewContextFetchAtOnce() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let view = container.viewContext
        #expect(try view.count(for: FetchRequest<Note>()) == 0)
        try await insertNotes(["a", "b"], into: container)
        let titles = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        #expect(titles == ["a", "b"])
    }

    @Test func heldObjectChangesOnlyWhenTheViewContextMergesTheDidSave() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let held = try view.fetch(FetchRequest<Note>())[0]
        #expect(held.stars == 0)

        let changes = try await saveStars(5, of: held.objectID, in: container)

        #expect(held.stars == 0, "the save does not reach an object the viewContext holds")
        let refetched = try view.fetch(FetchRequest<Note>())[0]
        #expect(refetched === held, "one instance per ID")
        #expect(held.stars == 0, "a fetch does not refresh an object the context holds")

        let didChange = Mutex<Set<ManagedObjectID>>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: view, queue: nil
        ) { note in
            let updated =
                note.userInfo?[ManagedObjectContext.NotificationKey.updatedObjects.rawValue] as? Set<ManagedObject>
                ?? []
            let ids = Set(updated.map(\.objectID))
            didChange.withLock { $0.formUnion(ids) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        view.mergeChanges(fromContextDidSave: changes)
        #expect(held.stars == 5)
        #expect(!held.hasChanges)
        #expect(!view.hasChanges)
        #expect(didChange.withLock { $0 } == [held.objectID])
    }

    @Test func mergeKeepsTheReceiversUnsavedChangesOnTop() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let held = try view.fetch(FetchRequest<Note>())[0]
        held.body = "local"
        let changes = try await saveStars(9, of: held.objectID, in: container)
        view.mergeChanges(fromContextDidSave: changes)
        #expect(held.stars == 9)
        #expect(held.body == "local")
        #expect(held.changedValues() == ["body": .string("local")])
    }

    @Test func refreshPicksUpTheStoreValuesWithoutAMerge() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        var loaded = FetchRequest<Note>()
        loaded.returnsObjectsAsFaults = false
        let held = try view.fetch(loaded)[0]
        _ = try await saveStars(7, of: held.objectID, in: container)
        #expect(held.stars == 0, "a realized object keeps what it read")
        view.refresh(held, mergeChanges: false)
        #expect(held.isFault)
        #expect(held.stars == 7)
    }

    @Test func automaticallyMergesChangesFromParentMergesSiblingSaves() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let held = try view.fetch(FetchRequest<Note>())[0]
        _ = try await saveStars(3, of: held.objectID, in: container)
        // The merge was queued on the main queue before this block.
        await view.perform {}
        #expect(held.stars == 3)
    }

    @Test func mergedDeletionRemovesTheObjectFromTheReceivingContext() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a", "b"], into: container)
        let view = container.viewContext
        let held = try view.fetch(FetchRequest<Note>(predicate: #Predicate { $0.title == "a" }))[0]
        let id = held.objectID

        let worker = container.newBackgroundContext()
        let changes = try await worker.perform { () throws -> ContextSaveChanges in
            try captureDidSave(of: worker) {
                worker.delete(try worker.existingObject(with: id))
            }
        }
        #expect(changes.deletedObjectIDs == [id])

        let deletedSeen = Mutex<[ManagedObjectID]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: view, queue: nil
        ) { note in
            let deleted =
                note.userInfo?[ManagedObjectContext.NotificationKey.deletedObjects.rawValue] as? Set<ManagedObject>
                ?? []
            let ids = deleted.map(\.objectID)
            deletedSeen.withLock { $0 += ids }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        view.mergeChanges(fromContextDidSave: changes)
        #expect(view.registeredObject(for: id) == nil)
        #expect(held.isDeleted)
        #expect(held.managedObjectContext == nil)
        #expect(try view.fetch(FetchRequest<Note>()).map(\.title) == ["b"])
        #expect(deletedSeen.withLock { $0 } == [id])
    }

    /// Sets `stars` of the note `id` in a new background context, saves, and returns the save's
    /// changes as its didSave notification carried them.
    private func saveStars(
        _ stars: Int16, of id: ManagedObjectID, in container: PersistentContainer
    ) async throws -> ContextSaveChanges {
        let worker = container.newBackgroundContext()
        let changes = try await worker.perform { () throws -> ContextSaveChanges in
            try captureDidSave(of: worker) {
                let note = try worker.existingObject(with: id) as! Note
                note.stars = stars
            }
        }
        #expect(changes.updatedObjectIDs == [id])
        return changes
    }
}

/// Runs `changes` on `context` (on its queue), saves, and returns what its didSave carried.
func captureDidSave(of context: ManagedObjectContext, _ changes: () throws -> Void) throws -> ContextSaveChanges {
    let captured = Mutex<ContextSaveChanges?>(nil)
    let observer = NotificationCenter.default.addObserver(
        forName: ManagedObjectContext.didSaveNotification, object: context, queue: nil
    ) { note in
        let changes = ContextSaveChanges(note)
        captured.withLock { $0 = changes }
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    try changes()
    try context.save()
    return try #require(captured.withLock { $0 })
}

/// `shouldRefreshRefetchedObjects`: a fetch that updates the objects the context holds.
@MainActor @Suite struct RefetchTests {
    @Test func aRefreshingFetchUpdatesHeldObjectsAndKeepsUnsavedChanges() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let held = try view.fetch(FetchRequest<Note>())[0]
        held.body = "local"
        let worker = container.newBackgroundContext()
        let id = held.objectID
        try await worker.perform {
            (try worker.existingObject(with: id) as! Note).stars = 4
            try worker.save()
        }
        _ = try view.fetch(FetchRequest<Note>())
        #expect(held.stars == 0, "a plain fetch keeps the held values")
        var refreshing = FetchRequest<Note>()
        refreshing.shouldRefreshRefetchedObjects = true
        _ = try view.fetch(refreshing)
        #expect(held.stars == 4)
        #expect(held.body == "local")
    }
}
