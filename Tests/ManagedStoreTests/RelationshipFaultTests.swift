import Foundation
import ManagedStore
import TestSupport
import Testing

/// `hasFault(forRelationshipNamed:)` and `objectIDs(forRelationshipNamed:)`, as Core Data
/// documents them: "Returns a Boolean value that indicates whether the relationship for a given
/// key is a fault … If the specified relationship is a fault, calling this method does not
/// result in the fault firing", and "Returns the object IDs for all of the managed objects that
/// are in the named relationship" (developer.apple.com, NSManagedObject).
@Suite struct RelationshipFaultTests {
    @Test func hasFaultSaysWhetherReadingTheRelationshipLoadsObjectsAndFiresNothing() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Library", model: LibraryModel.model)
        let writer = container.newBackgroundContext()
        let authorID = try writer.performAndWait { () throws -> ManagedObjectID in
            let author = Author(context: writer)
            author.name = "Tolstoy"
            #expect(!author.hasFault(forRelationshipNamed: "books"), "an unsaved object's members are all in memory")
            #expect(!author.hasFault(forRelationshipNamed: "portrait"), "a nil to-one is no fault")
            let book = Book(context: writer)
            book.title = "War and Peace"
            book.author = author
            let portrait = Portrait(context: writer)
            portrait.caption = "oil"
            author.portrait = portrait
            try writer.save()
            return author.objectID
        }
        let reader = container.newBackgroundContext()
        reader.performAndWait {
            let author = reader.object(with: authorID) as! Author
            #expect(author.hasFault(forRelationshipNamed: "books") && author.hasFault(forRelationshipNamed: "portrait"))
            #expect(author.isFault, "asking fired nothing")
            _ = author.portrait?.caption
            #expect(!author.hasFault(forRelationshipNamed: "portrait"), "its destination is loaded")
            #expect(author.hasFault(forRelationshipNamed: "books"), "not read yet")
            _ = author.books.count
            #expect(!author.hasFault(forRelationshipNamed: "books"), "firing the fault loaded it")
        }
        try reader.performAndWait {
            reader.reset()
            var request = FetchRequest<Author>()
            request.relationshipKeyPathsForPrefetching = ["books"]
            let author = try reader.fetch(request)[0]
            #expect(!author.hasFault(forRelationshipNamed: "books"), "prefetched")
        }
    }

    /// Apple, "Faulting and Uniquing": a relationship is "represented by a fault until it is
    /// accessed"; "firing a fault" loads it. `hasFault(forRelationshipNamed:)` then says false,
    /// and the members are not fetched again: another context's save shows only once the owner
    /// is refreshed (`refresh(_:mergeChanges:)` "turns the object into a fault") or the save
    /// is merged; the context's own unsaved changes show at once.
    @Test func aToManyReadOnceStaysLoadedUntilTheOwnerIsRefreshed() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Library", model: LibraryModel.model)
        let writer = container.newBackgroundContext()
        let authorID = try writer.performAndWait { () throws -> ManagedObjectID in
            let author = Author(context: writer)
            author.name = "Tolstoy"
            let book = Book(context: writer)
            book.title = "War and Peace"
            book.author = author
            try writer.save()
            return author.objectID
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            let author = reader.object(with: authorID) as! Author
            #expect(author.hasFault(forRelationshipNamed: "books"))
            #expect(author.books.count == 1)
            #expect(!author.hasFault(forRelationshipNamed: "books"), "accessed: the fault fired")
            try writer.performAndWait {
                let book = Book(context: writer)
                book.title = "Anna Karenina"
                book.author = (writer.object(with: authorID) as! Author)
                try writer.save()
            }
            #expect(author.books.map(\.title) == ["War and Peace"], "not fetched again")
            let local = Book(context: reader)
            local.title = "Resurrection"
            local.author = author
            #expect(Set(author.books.map(\.title)) == ["War and Peace", "Resurrection"], "its own changes show")
            reader.delete(local)
            reader.refresh(author, mergeChanges: false)
            #expect(author.hasFault(forRelationshipNamed: "books"), "refreshed: a fault again")
            #expect(Set(author.books.map(\.title)) == ["War and Peace", "Anna Karenina"])
        }
    }

    /// Property: after any seeded sequence of inserts, moves, deletions and saves, in a context
    /// on the coordinator and in a child context (whose parent saves too), each author's `objectIDs(forRelationshipNamed:
    /// "books")` is the set of its books in a graph the test keeps itself, and the IDs of its
    /// `books`.
    @Test(arguments: [false, true]) func objectIDsAreTheRelationshipsMembers(inChild: Bool) throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "")
            ?? UInt64(Date().timeIntervalSince1970)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<8 {
            let dir = TemporaryDirectory()
            let container = try makeContainer(in: dir, name: "Library", model: LibraryModel.model)
            let root = container.newBackgroundContext()
            let context: ManagedObjectContext
            if inChild {
                context = ManagedObjectContext(concurrencyType: .privateQueue)
                context.parent = root
            } else {
                context = root
            }
            try context.performAndWait {
                var authors: [Author] = []
                var books: [(book: Book, author: Int)] = []
                for step in 0..<40 {
                    var operation = Int.random(in: 0..<10, using: &generator)
                    if authors.isEmpty || (operation < 2 && authors.count >= 4) { operation = authors.isEmpty ? 0 : 2 }
                    if books.isEmpty && (5...7).contains(operation) { operation = 2 }
                    switch operation {
                    case 0, 1:
                        let author = Author(context: context)
                        author.name = "a\(step)"
                        authors.append(author)
                    case 2, 3, 4:
                        let book = Book(context: context)
                        book.title = "b\(step)"
                        let owner = Int.random(in: 0..<authors.count, using: &generator)
                        book.author = authors[owner]
                        books.append((book, owner))
                    case 5, 6:
                        let index = Int.random(in: 0..<books.count, using: &generator)
                        let owner = Int.random(in: 0..<authors.count, using: &generator)
                        books[index].book.author = authors[owner]
                        books[index].author = owner
                    case 7:
                        let index = Int.random(in: 0..<books.count, using: &generator)
                        context.delete(books.remove(at: index).book)
                    default:
                        // A child saves into its parent, which saves too now and then: the
                        // child's objects keep their temporary IDs (as in Core Data), and the
                        // parent still answers for them.
                        try context.save()
                        if inChild && Bool.random(using: &generator) { try root.performAndWait { try root.save() } }
                    }
                    for (index, author) in authors.enumerated() {
                        let expected = Set(books.filter { $0.author == index }.map(\.book.objectID))
                        let ids = author.objectIDs(forRelationshipNamed: "books")
                        #expect(
                            Set(ids) == expected && ids.count == expected.count,
                            "ECBRATES_SEED=\(seed) child \(inChild): round \(round), step \(step) (operation \(operation)), author \(index): \(ids) vs \(expected)"
                        )
                        #expect(Set(author.books.map(\.objectID)) == expected)
                    }
                    for entry in books {
                        #expect(
                            entry.book.objectIDs(forRelationshipNamed: "author") == [authors[entry.author].objectID])
                    }
                }
            }
        }
    }
}
