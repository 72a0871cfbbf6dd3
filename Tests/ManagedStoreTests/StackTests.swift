import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// Behaviour 12: the three stacks of the "concurrent Core Data stack performance shootout",
/// built from the library's parts, each carrying an import of 1,000 notes in chunks of 100.
@MainActor @Suite struct StackTests {
    nonisolated static let total = 1_000
    nonisolated static let chunk = 100

    nonisolated static func fill(_ context: ManagedObjectContext, chunk: Int) {
        for index in chunk * Self.chunk..<(chunk + 1) * Self.chunk {
            let note = Note(context: context)
            note.title = String(format: "n%04d", index)
            note.stars = Int16(index % 5)
        }
    }

    /// Stack 1: coordinator ← main context ← private child.
    @Test func coordinatorMainContextPrivateChild() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let main = container.viewContext
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = main
        for chunk in 0..<Self.total / Self.chunk {
            try await child.perform {
                Self.fill(child, chunk: chunk)
                try child.save()
            }
            try main.save()
        }
        #expect(try main.count(for: FetchRequest<Note>()) == Self.total)
        #expect(try await storedNoteCount(container) == Self.total)
    }

    /// Stack 2: coordinator ← private writer ← main context ← private workers.
    @Test func coordinatorPrivateWriterMainContextPrivateWorkers() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let writer = container.newBackgroundContext()
        let main = ManagedObjectContext(concurrencyType: .mainQueue)
        main.parent = writer
        let workers = (0..<2).map { _ in
            let worker = ManagedObjectContext(concurrencyType: .privateQueue)
            worker.parent = main
            return worker
        }
        for chunk in 0..<Self.total / Self.chunk {
            let worker = workers[chunk % workers.count]
            try await worker.perform {
                Self.fill(worker, chunk: chunk)
                try worker.save()
            }
            try main.save()
            try await writer.perform { try writer.save() }
        }
        #expect(try main.count(for: FetchRequest<Note>()) == Self.total)
        #expect(try await storedNoteCount(container) == Self.total)
    }

    /// Stack 3: main and private contexts side by side on the coordinator, the main one
    /// merging each worker's didSave. An object the main context holds takes the new values.
    @Test func siblingContextsSyncedByMergingDidSave() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let main = container.viewContext
        let watched = Note(context: main)
        watched.title = "n0000"
        watched.stars = 9
        try main.save()

        let workers = (0..<2).map { _ in container.newBackgroundContext() }
        for worker in workers {
            worker.mergePolicy = .mergeByPropertyObjectTrump
        }
        let observers = workers.map { worker in
            NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveNotification, object: worker, queue: nil
            ) { note in
                guard let changes = ContextSaveChanges(note) else { return }
                main.perform { main.mergeChanges(fromContextDidSave: changes) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for chunk in 0..<Self.total / Self.chunk {
                let worker = workers[chunk % workers.count]
                group.addTask {
                    try await worker.perform {
                        Self.fill(worker, chunk: chunk)
                        try worker.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        await main.perform {}  // the merges queued on the main queue have run
        #expect(watched.stars == 0, "the object trump insert of n0000 was merged into the held object")
        #expect(!main.hasChanges)
        #expect(try main.count(for: FetchRequest<Note>()) == Self.total)
        #expect(try await storedNoteCount(container) == Self.total)
    }
}

/// Save notifications, validation, rollback and reset.
@MainActor @Suite struct SaveTests {
    @Test func saveOrdersWillSaveBeforeDidSaveAndCarriesTheIDs() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let events = Mutex<[String]>([])
        let names = [ManagedObjectContext.willSaveNotification, ManagedObjectContext.didSaveNotification]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: view, queue: nil) { note in
                var line = note.name.rawValue
                if let ids = note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue]
                    as? Set<ManagedObjectID>
                {
                    line += " inserted \(ids.count) permanent \(ids.allSatisfy { !$0.isTemporaryID })"
                }
                events.withLock { $0.append(line) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try view.save()  // nothing to save: nothing happens
        let note = Note(context: view)
        note.title = "a"
        try view.save()
        #expect(
            events.withLock { $0 } == [
                "ManagedObjectContextWillSave", "ManagedObjectContextDidSave inserted 1 permanent true",
            ])
    }

    @Test func aNilNonOptionalAttributeFailsValidation() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let note = Note(context: view)
        #expect {
            try view.save()
        } throws: { error in
            "\(error)"
                == "the save failed validation: Note.title of \(note.objectID): is nil, but the attribute is not optional"
        }
        #expect(note.isInserted)
    }

    @Test func rollbackDropsInsertsRestoresUpdatesAndDeletes() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "b"], into: container)
        let view = container.viewContext
        let notes = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
        notes[0].stars = 42
        view.delete(notes[1])
        let added = Note(context: view)
        added.title = "c"
        view.rollback()
        #expect(!view.hasChanges)
        #expect(notes[0].stars == 0)
        #expect(!notes[1].isDeleted)
        #expect(added.managedObjectContext == nil)
        #expect(try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["a", "b"])
    }

    @Test func resetForgetsEveryObject() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let note = try view.fetch(FetchRequest<Note>())[0]
        note.stars = 3
        let invalidated = Mutex(false)
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: view, queue: nil
        ) { note in
            let all =
                note.userInfo?[ManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue] as? Bool ?? false
            invalidated.withLock { $0 = all }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        view.reset()
        #expect(invalidated.withLock { $0 })
        #expect(view.registeredObjects.isEmpty)
        #expect(!view.hasChanges)
        #expect(note.managedObjectContext == nil)
        #expect(try view.fetch(FetchRequest<Note>())[0] !== note)
    }

    @Test func localChangesPostObjectsDidChangeAtTheEndOfAPerformBlock() async throws {
        let container = try makeContainer(in: nil)
        let worker = container.newBackgroundContext()
        let inserted = Mutex(0)
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: worker, queue: nil
        ) { note in
            let objects =
                note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
                ?? []
            let count = objects.count
            inserted.withLock { $0 += count }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        await worker.perform {
            for title in ["a", "b", "c"] {
                let note = Note(context: worker)
                note.title = title
            }
        }
        #expect(inserted.withLock { $0 } == 3)
    }
}
