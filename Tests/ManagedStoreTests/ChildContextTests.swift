import Foundation
import ManagedStore
import TestSupport
import Testing

/// Behaviours 4 and 7: a child's save goes to its parent only; fetches include pending changes,
/// a child's include its parent's.
@MainActor @Suite struct ChildContextTests {
    @Test func childSavePushesToTheParentOnlyUntilTheParentSaves() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let view = container.viewContext
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = view
        try await child.perform {
            let note = Note(context: child)
            note.title = "draft"
            note.stars = 4
            try child.save()
            #expect(!child.hasChanges)
        }
        #expect(view.hasChanges)
        let pushed = try #require(view.insertedObjects.first as? Note)
        #expect(pushed.title == "draft" && pushed.stars == 4)
        #expect(try await storedNoteCount(container) == 0, "a child's save does no I/O")

        try view.save()
        #expect(!view.hasChanges)
        #expect(try await storedNoteCount(container) == 1)
    }

    @Test func aChildUpdatePushesItsValuesIntoTheParentsObject() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let note = try view.fetch(FetchRequest<Note>())[0]
        let id = note.objectID
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = view
        try await child.perform {
            let copy = try child.existingObject(with: id) as! Note
            copy.body = "edited"
            try child.save()
        }
        #expect(note.body == "edited")
        #expect(note.isUpdated)
        #expect(view.updatedObjects == [note])
    }

    /// The journal editor's scratchpad: edits in a child that is thrown away leave nothing.
    @Test func aDiscardedChildLeavesNoTrace() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        let note = try view.fetch(FetchRequest<Note>())[0]
        let id = note.objectID
        var scratchpad: ManagedObjectContext? = ManagedObjectContext(concurrencyType: .mainQueue)
        scratchpad!.parent = view
        let copy = try scratchpad!.existingObject(with: id) as! Note
        copy.stars = 9
        let extra = Note(context: scratchpad!)
        extra.title = "never saved"
        #expect(scratchpad!.hasChanges)
        scratchpad = nil

        #expect(!view.hasChanges)
        #expect(note.stars == 0)
        #expect(try view.fetch(FetchRequest<Note>()).map(\.title) == ["a"])
        #expect(try await storedNoteCount(container) == 1)
    }

    @Test func fetchIncludesPendingInsertsUpdatesAndDeletes() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a", "b", "c"], into: container)  // stars 0, 1, 2
        let view = container.viewContext
        let all = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
        let (a, b, c) = (all[0], all[1], all[2])
        let d = Note(context: view)
        d.title = "d"
        d.stars = 3
        b.stars = 10
        view.delete(c)

        let starred = FetchRequest<Note>(predicate: #Predicate { $0.stars >= 1 }, sortBy: [SortDescriptor(\.stars)])
        #expect(try view.fetch(starred).map(\.title) == ["d", "b"])
        #expect(try view.count(for: starred) == 2)
        #expect(try view.fetch(FetchRequest<Note>(predicate: #Predicate { $0.stars < 1 })).map(\.title) == ["a"])

        a.stars = 5
        #expect(
            try view.fetch(FetchRequest<Note>(predicate: #Predicate { $0.stars < 1 })).isEmpty,
            "a's unsaved value no longer matches, though its stored one does")
        var limited = starred
        limited.fetchLimit = 2
        limited.fetchOffset = 1
        #expect(try view.fetch(limited).map(\.title) == ["a", "b"])

        var storedOnly = starred
        storedOnly.includesPendingChanges = false
        #expect(try view.fetch(storedOnly).map(\.title) == ["b", "c"], "stored values: b has 1, c has 2")
    }

    @Test func aChildFetchIncludesItsParentsPendingChanges() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a", "b"], into: container)
        let view = container.viewContext
        let stored = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
        view.delete(stored[0])
        stored[1].body = "parent's edit"
        let p = Note(context: view)
        p.title = "p"

        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = view
        let seen = try await child.perform { () throws -> [String] in
            let q = Note(context: child)
            q.title = "q"
            let notes = try child.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
            return notes.map { "\($0.title):\($0.body ?? "-")" }
        }
        #expect(seen == ["b:parent's edit", "p:-", "q:-"])
        let counted = try await child.perform { try child.count(for: FetchRequest<Note>()) }
        #expect(counted == 3, "b, p (the parent's insert) and q (the child's own, still pending)")
    }

    /// A child's objects keep their temporary IDs when the parent saves them (Core Data: they
    /// take permanent IDs only through `obtainPermanentIDs(for:)` or a merge of the parent's
    /// save), and the child goes on working with them: its to-many relationships still find
    /// their members through the parent, and its next save relates new objects to them.
    @Test func aChildKeepsWorkingWithItsObjectsAfterTheParentSavesThem() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Library", model: LibraryModel.model)
        let root = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = root
        try child.performAndWait {
            let author = Author(context: child)
            author.name = "Austen"
            let book = Book(context: child)
            book.title = "Emma"
            book.author = author
            try child.save()
            try root.performAndWait { try root.save() }
            #expect(author.objectID.isTemporaryID, "still temporary in the child")
            #expect(author.books.map(\.title) == ["Emma"])
            #expect(author.objectIDs(forRelationshipNamed: "books") == [book.objectID])
            let next = Book(context: child)
            next.title = "Persuasion"
            next.author = author
            try child.save()
            try root.performAndWait { try root.save() }
            #expect(Set(author.books.map(\.title)) == ["Emma", "Persuasion"])
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let authors = try reader.fetch(FetchRequest<Author>())
            #expect(authors.count == 1 && Set(authors[0].books.map(\.title)) == ["Emma", "Persuasion"])
        }
    }
}
