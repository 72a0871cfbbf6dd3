import Foundation
import ManagedStore
import TestSupport
import Testing

/// Behaviour 5: temporary and permanent IDs, URIs, faults without I/O, existingObject, uniquing.
@MainActor @Suite struct ObjectIDTests {
    @Test func anIDIsTemporaryUntilTheSave() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let note = Note(context: view)
        note.title = "a"
        let temporary = note.objectID
        #expect(temporary.isTemporaryID)
        #expect(temporary.persistentStore == nil)
        #expect(temporary.uriRepresentation().absoluteString.hasPrefix("x-managedstore:///Note/t"))
        try view.save()
        #expect(!note.objectID.isTemporaryID)
        #expect(note.objectID != temporary)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(note.objectID.uriRepresentation().absoluteString == "x-managedstore://\(store.identifier)/Note/p1")
        #expect(view.registeredObject(for: note.objectID) === note)
        #expect(view.registeredObject(for: temporary) == nil)
    }

    @Test func obtainPermanentIDsGivesTheIDTheSaveKeeps() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let note = Note(context: view)
        note.title = "a"
        try view.obtainPermanentIDs(for: [note])
        let permanent = note.objectID
        #expect(!permanent.isTemporaryID)
        #expect(view.registeredObject(for: permanent) === note)
        #expect(note.isInserted)
        try view.save()
        #expect(note.objectID == permanent)
        let other = container.newBackgroundContext()
        let title = try other.performAndWait { try (other.existingObject(with: permanent) as! Note).title }
        #expect(title == "a")
    }

    @Test func theURIRoundTrips() throws {
        let container = try makeContainer(in: nil)
        let coordinator = container.persistentStoreCoordinator
        let view = container.viewContext
        let note = Note(context: view)
        note.title = "a"
        let temporary = note.objectID
        #expect(coordinator.managedObjectID(forURIRepresentation: temporary.uriRepresentation()) == temporary)
        try view.save()
        let permanent = note.objectID
        #expect(coordinator.managedObjectID(forURIRepresentation: permanent.uriRepresentation()) == permanent)
        #expect(
            coordinator.managedObjectID(forURIRepresentation: URL(string: "x-managedstore://OTHER-STORE/Note/p1")!)
                == nil)
        #expect(
            coordinator.managedObjectID(forURIRepresentation: URL(string: "x-managedstore:///Note/tsomeone-else-7")!)
                == nil)
        #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: "https://example.com/Note/p1")!) == nil)
    }

    /// The row is deleted before `object(with:)` is called: only a call that does no I/O can
    /// still hand back an object (a fault), without throwing or trapping.
    @Test func objectWithIDReturnsAFaultWithoutIO() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let worker = container.newBackgroundContext()
        let id = try await worker.perform { () throws -> ManagedObjectID in
            let note = try worker.fetch(FetchRequest<Note>())[0]
            let id = note.objectID
            worker.delete(note)
            try worker.save()
            return id
        }
        let view = container.viewContext
        #expect(view.registeredObject(for: id) == nil)
        let fault = view.object(with: id)
        #expect(fault.isFault)
        #expect(view.registeredObject(for: id) === fault)
        #expect(view.object(with: id) === fault)
    }

    @Test func existingObjectThrowsForADeletedRow() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let id = try view.fetch(FetchRequest<Note>())[0].objectID
        let worker = container.newBackgroundContext()
        try await worker.perform {
            worker.delete(try worker.existingObject(with: id))
            try worker.save()
        }
        let other = container.newBackgroundContext()
        #expect {
            try other.performAndWait { _ = try other.existingObject(with: id) }
        } throws: { error in
            (error as? ManagedStoreError)?.description
                == "no object \(id) in the store (it was deleted, or never saved)"
        }
    }

    @Test func aContextHoldsOneInstancePerID() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a", "b"], into: container)
        let view = container.viewContext
        let first = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
        let second = try view.fetch(FetchRequest<Note>(predicate: #Predicate { $0.title == "a" }))
        #expect(second[0] === first[0])
        #expect(view.object(with: first[1].objectID) === first[1])
        #expect(try view.existingObject(with: first[1].objectID) === first[1])
        #expect(view.registeredObjects == Set(first))
    }
}
