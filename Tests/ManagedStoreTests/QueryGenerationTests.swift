import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// Query generations, as Core Data documents `setQueryGenerationFrom(_:)` and
/// `NSQueryGenerationToken`: a pinned context reads one state of the store until it saves,
/// merges or is reset.
@Suite struct QueryGenerationTests {
    static func titles(_ context: ManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            try context.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        }
    }

    /// Core Data: a context pinned with `.current` keeps reading the generation it was pinned
    /// to, whatever other contexts save: fetches and counts alike.
    @Test func aPinnedContextDoesNotSeeLaterSavesUntilItMovesOn() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a"], into: container)
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            #expect(reader.queryGenerationToken == nil, "unpinned by default")
            try reader.setQueryGenerationFrom(.current)
            #expect(reader.queryGenerationToken != nil && reader.queryGenerationToken != .current)
        }
        try insertNotesSync(["b"], into: container)
        #expect(try Self.titles(reader) == ["a"])
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest<Note>()) } == 1)
        #expect(try Self.titles(container.newBackgroundContext()) == ["a", "b"], "an unpinned context reads live")

        // reset() moves it to the newest generation (and it stays pinned).
        let old = reader.performAndWait { reader.queryGenerationToken }
        reader.performAndWait { reader.reset() }
        #expect(try Self.titles(reader) == ["a", "b"])
        #expect(reader.performAndWait { reader.queryGenerationToken != nil && reader.queryGenerationToken != old })

        try insertNotesSync(["c"], into: container)
        #expect(try Self.titles(reader) == ["a", "b"])
        try reader.performAndWait { try reader.setQueryGenerationFrom(.unpinned) }
        #expect(try Self.titles(reader) == ["a", "b", "c"], ".unpinned: live reads again")
        #expect(reader.performAndWait { reader.queryGenerationToken } == nil)
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        try insertNotesSync(["d"], into: container)
        try reader.performAndWait { try reader.setQueryGenerationFrom(nil) }
        #expect(try Self.titles(reader) == ["a", "b", "c", "d"], "nil unpins too")
    }

    /// Core Data: saving and merging move a pinned context to the newest generation.
    @Test func savingAndMergingMoveAPinnedContextOn() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a"], into: container)
        let reader = container.newBackgroundContext()
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        try insertNotesSync(["b"], into: container)
        try reader.performAndWait {
            Note(context: reader).title = "mine"
            try reader.save()
        }
        #expect(try Self.titles(reader) == ["a", "b", "mine"], "its save moved it on")

        let worker = container.newBackgroundContext()
        let saved = try worker.performAndWait { () throws -> ContextSaveChanges in
            Note(context: worker).title = "merged"
            let changes = Mutex<ContextSaveChanges?>(nil)
            let observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectIDsNotification, object: worker, queue: nil
            ) { note in
                changes.withLock { $0 = ContextSaveChanges(note) }
            }
            try worker.save()
            NotificationCenter.default.removeObserver(observer)
            return try #require(changes.withLock { $0 })
        }
        try insertNotesSync(["later"], into: container)
        #expect(try Self.titles(reader) == ["a", "b", "mine"])
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved) }
        #expect(
            try Self.titles(reader) == ["a", "b", "later", "merged", "mine"],
            "a merge moves it to the newest generation")
    }

    /// A fault fired in a pinned context reads the pinned generation's values.
    @Test func faultsReadThePinnedGeneration() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a"], into: container)
        let id = try container.viewContext.performAndWait {
            try container.viewContext.fetch(FetchRequest<Note>())[0].objectID
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        let worker = container.newBackgroundContext()
        try worker.performAndWait {
            (worker.object(with: id) as! Note).stars = 7
            try worker.save()
        }
        #expect(reader.performAndWait { (reader.object(with: id) as! Note).stars } == 0)
    }

    /// Core Data: one context's token given to another pins it to the same generation.
    @Test func aTokenGivenToAnotherContextPinsItToTheSameGeneration() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a"], into: container)
        let first = container.newBackgroundContext()
        let token = try first.performAndWait { () throws -> QueryGenerationToken? in
            try first.setQueryGenerationFrom(.current)
            return first.queryGenerationToken
        }
        try insertNotesSync(["b"], into: container)
        let second = container.newBackgroundContext()
        try second.performAndWait { try second.setQueryGenerationFrom(token) }
        #expect(try Self.titles(second) == ["a"])
        #expect(second.performAndWait { second.queryGenerationToken } == token)
    }

    /// Core Data: "If you try to use query generations with a store that's not an
    /// NSSQLiteStoreType in WAL journal mode, your contexts gracefully revert to unpinned
    /// behavior" (developer.apple.com, "Accessing data when the store changes"). So a context
    /// of an in-memory store asked to pin stays unpinned: its token stays nil, and it reads
    /// what other contexts save.
    @Test func anInMemoryStoresContextsGracefullyStayUnpinned() throws {
        let memory = try makeContainer(in: nil)
        let view = memory.viewContext
        try view.performAndWait {
            try view.setQueryGenerationFrom(.current)
            #expect(view.queryGenerationToken == nil)
        }
        try insertNotesSync(["a"], into: memory)
        #expect(try Self.titles(view) == ["a"], "reads live")
    }

    /// A child context reads through its parent: asking to pin it says so rather than read
    /// live silently.
    @Test func aChildContextSaysToPinItsParent() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = container.viewContext
        child.name = "child"
        #expect {
            try child.performAndWait { try child.setQueryGenerationFrom(.current) }
        } throws: { error in
            "\(error)"
                == "no query generation: context 'child' (privateQueue) is a child context, which reads through its parent: pin the parent"
        }
    }
}
