import Foundation
import ManagedStore
import Synchronization
import Testing

final class Author: ManagedObject {
    @Attribute var name: String
    @Relationship var books: Set<Book>
    @Relationship var portrait: Portrait?
}

final class Book: ManagedObject {
    @Attribute var title: String
    @Relationship var author: Author?
    @Relationship var reviews: Set<Review>
}

final class Review: ManagedObject {
    @Attribute var stars: Int16
    @Relationship var book: Book?
}

final class Portrait: ManagedObject {
    @Attribute var caption: String
    @Relationship var sitter: Author?
}

enum LibraryModel {
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Author", managedObjectClass: Author.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [
                .toMany("books", destination: "Book", inverse: "author", deleteRule: .deny),
                .toOne("portrait", destination: "Portrait", inverse: "sitter", deleteRule: .cascade),
            ]),
        EntityDescription(
            name: "Book", managedObjectClass: Book.self,
            attributes: [AttributeDescription(name: "title", type: .string)],
            relationships: [
                .toOne("author", destination: "Author", inverse: "books", isOptional: false),
                .toMany("reviews", destination: "Review", inverse: "book", maxCount: 3, deleteRule: .cascade),
            ]),
        EntityDescription(
            name: "Review", managedObjectClass: Review.self,
            attributes: [AttributeDescription(name: "stars", type: .integer16)],
            relationships: [.toOne("book", destination: "Book", inverse: "reviews")]),
        EntityDescription(
            name: "Portrait", managedObjectClass: Portrait.self,
            attributes: [AttributeDescription(name: "caption", type: .string)],
            relationships: [.toOne("sitter", destination: "Author", inverse: "portrait", deleteRule: .nullify)]),
    ])

    static func container() throws -> PersistentContainer {
        try makeContainer(in: nil, name: "Library", model: model)
    }
}

/// Relationships as Core Data keeps them: inverses in step on both sides, delete rules,
/// validation at save, faults, and relationship changes carried by child saves and merges.
@MainActor @Suite struct RelationshipTests {
    @Test func settingEitherSideKeepsTheInverseInStep() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        let tolstoy = Author(context: context)
        tolstoy.name = "Tolstoy"
        let chekhov = Author(context: context)
        chekhov.name = "Chekhov"
        let war = Book(context: context)
        war.title = "War and Peace"
        war.author = tolstoy
        #expect(tolstoy.books == [war])
        let steppe = Book(context: context)
        steppe.title = "The Steppe"
        chekhov.books.insert(steppe)
        #expect(steppe.author === chekhov)
        // Moving a book moves it out of the old author's set.
        war.author = chekhov
        #expect(tolstoy.books.isEmpty)
        #expect(chekhov.books == [war, steppe])
        chekhov.books.remove(war)
        #expect(war.author == nil)
        // One-to-one: taking a portrait from another author clears that author's side.
        let portrait = Portrait(context: context)
        portrait.caption = "oil"
        tolstoy.portrait = portrait
        #expect(portrait.sitter === tolstoy)
        chekhov.portrait = portrait
        #expect(portrait.sitter === chekhov)
        #expect(tolstoy.portrait == nil)
    }

    @Test func relationshipsSurviveASaveAndComeBackAsFaultsInAnotherContext() async throws {
        let container = try LibraryModel.container()
        let worker = container.newBackgroundContext()
        let bookID = try await worker.perform { () throws -> ManagedObjectID in
            let author = Author.make("Austen", in: worker)
            let book = Book.make("Emma", by: author, stars: [4, 5], in: worker)
            try worker.save()
            #expect(!book.objectID.isTemporaryID && !author.objectID.isTemporaryID)
            return book.objectID
        }
        let view = container.viewContext
        let book = try view.existingObject(with: bookID) as! Book
        let author = try #require(book.author)
        #expect(author.isFault, "a to-one destination comes as a fault")
        #expect(author.name == "Austen")
        #expect(author.books == [book])
        #expect(book.reviews.map(\.stars).sorted() == [4, 5])
    }

    @Test func cascadeDeletesTheDestinationsAndNullifyClearsTheInverse() async throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        let author = Author.make("Woolf", books: ["Orlando"], stars: [5], portrait: "photo", in: context)
        let portrait = try #require(author.portrait)
        let book = try #require(author.books.first)
        let review = try #require(book.reviews.first)
        try context.save()

        // Book → reviews cascades.
        context.delete(book)
        #expect(review.isDeleted)
        try context.save()
        #expect(try context.count(for: FetchRequest<Review>()) == 0)
        #expect(author.books.isEmpty)

        // Portrait.sitter nullifies: the author's portrait is cleared.
        context.delete(portrait)
        #expect(author.portrait == nil)
        try context.save()
        #expect(try context.count(for: FetchRequest<Author>()) == 1)
    }

    @Test func denyRefusesTheSaveNamingTheObjectAndRelationship() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        let author = Author.make("Hugo", in: context)
        let book = Book.make("Les Misérables", by: author, in: context)
        try context.save()
        context.delete(author)
        #expect {
            try context.save()
        } throws: { error in
            "\(error)"
                == "the save failed validation: Author.books of \(author.objectID): denies the deletion: it still relates to 1 object (\(book.objectID))"
        }
        // Deleting the book first makes the deletion possible.
        context.rollback()
        context.delete(book)
        context.delete(author)
        try context.save()
        #expect(try context.count(for: FetchRequest<Author>()) == 0)
    }

    @Test func aMandatoryToOneAndAMaximumCountAreValidatedAtSave() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        let book = Book.make("Anonymous", by: nil, in: context)
        #expect {
            try context.save()
        } throws: { error in
            "\(error)"
                == "the save failed validation: Book.author of \(book.objectID): is nil, but the relationship is not optional"
        }
        book.author = Author.make("Someone", in: context)
        for stars in 1...4 as ClosedRange<Int16> {
            let review = Review(context: context)
            review.stars = stars
            review.book = book
        }
        #expect {
            try context.save()
        } throws: { error in
            "\(error)" == "the save failed validation: Book.reviews of \(book.objectID): has 4 objects, outside 0...3"
        }
        book.reviews = Set(book.reviews.sorted { $0.stars < $1.stars }.prefix(3))
        try context.save()
        #expect(
            try context.count(for: FetchRequest<Review>(predicate: #Predicate { $0.stars == 4 })) == 1,
            "the fourth review is kept, without a book")
    }

    @Test func aChildContextPushesRelationshipChangesToItsParent() throws {
        let container = try LibraryModel.container()
        let view = container.viewContext
        let author = Author(context: view)
        author.name = "Dickens"
        try view.save()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = view
        try child.performAndWait {
            let dickens = child.object(with: author.objectID) as! Author
            let book = Book(context: child)
            book.title = "Bleak House"
            book.author = dickens
            #expect(dickens.books.count == 1)
            try child.save()
        }
        #expect(author.books.map(\.title) == ["Bleak House"], "the parent sees the child's new book")
        try view.save()
        let fresh = container.newBackgroundContext()
        let titles = try fresh.performAndWait {
            try fresh.fetch(FetchRequest<Book>()).map { "\($0.title) by \($0.author?.name ?? "nobody")" }
        }
        #expect(titles == ["Bleak House by Dickens"])
    }

    @Test func aMergeCarriesRelationshipChangesToAnotherContext() async throws {
        let container = try LibraryModel.container()
        let view = container.viewContext
        let first = Author(context: view)
        first.name = "First"
        let second = Author(context: view)
        second.name = "Second"
        let book = Book(context: view)
        book.title = "Moved"
        book.author = first
        try view.save()
        #expect(first.books == [book])

        let worker = container.newBackgroundContext()
        let captured = Mutex<ContextSaveChanges?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDsNotification,
            object: worker, queue: nil
        ) { note in
            captured.withLock { $0 = ContextSaveChanges(note) }
        }
        let (bookID, secondID) = (book.objectID, second.objectID)
        try await worker.perform {
            let moved = worker.object(with: bookID) as! Book
            moved.author = (worker.object(with: secondID) as! Author)
            try worker.save()
        }
        NotificationCenter.default.removeObserver(observer)
        view.mergeChanges(fromContextDidSave: try #require(captured.withLock { $0 }))
        #expect(book.author === second)
        #expect(first.books.isEmpty)
        #expect(second.books == [book])
    }

    @Test func keyValueAccessReachesRelationshipsToo() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        let author = Author(context: context)
        author.name = "Eliot"
        let book = Book(context: context)
        book.setValue("Middlemarch", forKey: "title")
        book.setValue(author, forKey: "author")
        #expect(author.value(forKey: "books") as? Set<ManagedObject> == [book])
        #expect(book.value(forKey: "author") as? Author === author)
        #expect(book.changedValues()["author"] == .object(author.objectID))
    }

    /// A small library, saved: Tolstoy (2 books, one with 3 reviews), Chekhov (1 book), and a
    /// book whose author is... required, so every book has one.
    private func library() throws -> (PersistentContainer, [String: ManagedObjectID]) {
        let container = try LibraryModel.container()
        let context = container.viewContext
        var ids: [String: ManagedObjectID] = [:]
        let tolstoy = Author(context: context)
        tolstoy.name = "Tolstoy"
        let chekhov = Author(context: context)
        chekhov.name = "Chekhov"
        for (title, author, reviews) in [
            ("War and Peace", tolstoy, 3), ("Anna Karenina", tolstoy, 0), ("The Steppe", chekhov, 1),
        ] {
            let book = Book(context: context)
            book.title = title
            book.author = author
            for stars in 0..<reviews {
                let review = Review(context: context)
                review.stars = Int16(stars + 3)
                review.book = book
            }
        }
        try context.save()
        for author in [tolstoy, chekhov] { ids[author.name] = author.objectID }
        return (container, ids)
    }

    /// Core Data: a predicate can follow a to-one relationship (`author.name`), compare it with
    /// an object or nil, and use a to-many's count or membership; it runs in the store.
    @Test func predicatesFollowRelationshipsInTheStore() throws {
        let (container, ids) = try library()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func titles(_ predicate: Predicate<Book>) throws -> [String] {
                try context.fetch(FetchRequest<Book>(predicate: predicate, sortBy: [SortDescriptor(\.title)])).map(
                    \.title)
            }
            #expect(try titles(#Predicate { $0.author?.name == "Tolstoy" }) == ["Anna Karenina", "War and Peace"])
            #expect(try titles(#Predicate { ($0.author?.name ?? "") >= "D" }) == ["Anna Karenina", "War and Peace"])
            let chekhov = ids["Chekhov"]!
            #expect(try titles(#Predicate { $0.author?.objectID == chekhov }) == ["The Steppe"])
            #expect(try titles(#Predicate { $0.author?.objectID != chekhov }) == ["Anna Karenina", "War and Peace"])
            #expect(try titles(#Predicate { $0.author != nil }).count == 3)
            #expect(try titles(#Predicate { $0.reviews.count >= 1 }) == ["The Steppe", "War and Peace"])
            #expect(try titles(#Predicate { $0.reviews.count == 0 }) == ["Anna Karenina"])
            // isEmpty is Core Data's `reviews.@count == 0` (issue 45: it was refused).
            #expect(try titles(#Predicate { $0.reviews.isEmpty }) == ["Anna Karenina"])
            #expect(try titles(#Predicate { !$0.reviews.isEmpty }) == ["The Steppe", "War and Peace"])
            let authors = try context.fetch(FetchRequest<Author>(predicate: #Predicate { $0.books.count > 1 })).map(
                \.name)
            #expect(authors == ["Tolstoy"])
            let steppe = try context.fetch(FetchRequest<Book>(predicate: #Predicate { $0.title == "The Steppe" }))[0]
                .objectID
            #expect(
                try context.fetch(
                    FetchRequest<Author>(predicate: #Predicate { $0.books.contains { $0.objectID == steppe } })
                ).map(\.name) == ["Chekhov"])
            #expect(
                try context.fetch(
                    FetchRequest<Author>(predicate: #Predicate { $0.books.contains { $0.title.starts(with: "Anna") } })
                ).map(\.name) == ["Tolstoy"])
            #expect(
                try context.count(
                    for: FetchRequest<Review>(predicate: #Predicate { $0.book?.title == "War and Peace" })) == 3)
            // A typed fetch reads a to-one relationship as its destination's ID.
            let pairs = try context.fetchValues(
                FetchRequest<Book>(sortBy: [SortDescriptor(\.title)]), \.title, \.author?.objectID)
            #expect(pairs.map(\.0) == ["Anna Karenina", "The Steppe", "War and Peace"])
            #expect(pairs.map(\.1) == [ids["Tolstoy"], ids["Chekhov"], ids["Tolstoy"]])
        }
    }

    @Test func aPredicateOnAnUnsavedDestinationMatchesThePendingObjectsOnly() throws {
        let (container, _) = try library()
        let context = container.viewContext
        let newcomer = Author(context: context)
        newcomer.name = "Newcomer"
        let book = Book(context: context)
        book.title = "Debut"
        book.author = newcomer
        let id = newcomer.objectID
        #expect(
            try context.fetch(FetchRequest<Book>(predicate: #Predicate { $0.author?.objectID == id })).map(\.title) == [
                "Debut"
            ])
    }

    @Test func aDeeperChainIsRefusedNamingIt() throws {
        let (container, _) = try library()
        #expect {
            _ = try container.viewContext.fetch(
                FetchRequest<Review>(predicate: #Predicate { $0.book?.author?.name == "Tolstoy" }))
        } throws: { error in
            "\(error)".contains("one relationship deep is supported")
        }
    }

    /// Core Data's `relationshipKeyPathsForPrefetching`: the destinations come with the fetch,
    /// loaded, and reading them needs no further I/O. Shown by deleting the rows behind the
    /// context's back: prefetched, it still has them; without prefetching, it reads the store.
    @Test func prefetchedRelationshipsAreReadWithoutFurtherQueries() async throws {
        let (container, _) = try library()
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        var request = FetchRequest<Book>(sortBy: [SortDescriptor(\.title)])
        request.relationshipKeyPathsForPrefetching = ["author", "reviews"]
        let books = try context.performAndWait { try context.fetch(request) }
        context.performAndWait {
            #expect(books.allSatisfy { !$0.author!.isFault }, "to-one destinations come loaded")
        }
        try other.performAndWait {
            for review in try other.fetch(FetchRequest<Review>()) { other.delete(review) }
            try other.save()
        }
        context.performAndWait {
            #expect(books.map { $0.reviews.count } == [0, 1, 3], "the prefetched members, not the store's")
            context.refreshAllObjects()
            #expect(books.map { $0.reviews.count } == [0, 0, 0], "after a refresh, the store's")
        }
    }

    /// The issue's walk across contexts: insert in a background context, merge into the view
    /// context, traverse there, cascade-delete there, and a deny that refuses.
    @Test func insertInTheBackgroundMergeTraverseCascadeAndDenyInTheView() async throws {
        let container = try LibraryModel.container()
        let view = container.viewContext
        let worker = container.newBackgroundContext()
        let captured = Mutex<[ContextSaveChanges]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDsNotification,
            object: worker, queue: nil
        ) { note in
            if let changes = ContextSaveChanges(note) { captured.withLock { $0.append(changes) } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let authorID = try await worker.perform { () throws -> ManagedObjectID in
            let author = Author(context: worker)
            author.name = "Austen"
            let portrait = Portrait(context: worker)
            portrait.caption = "sketch"
            author.portrait = portrait
            for title in ["Emma", "Persuasion"] {
                let book = Book(context: worker)
                book.title = title
                book.author = author
                let review = Review(context: worker)
                review.stars = 5
                review.book = book
            }
            try worker.save()
            return author.objectID
        }
        for changes in captured.withLock({ $0 }) { view.mergeChanges(fromContextDidSave: changes) }
        let author = try #require(view.registeredObject(for: authorID) as? Author, "merged in, registered")
        #expect(author.books.map(\.title).sorted() == ["Emma", "Persuasion"])
        #expect(author.books.flatMap(\.reviews).count == 2)
        #expect(author.portrait?.caption == "sketch")

        // Author.books denies while it has books; deleting the books cascades to their reviews.
        view.delete(author)
        #expect(throws: ManagedStoreError.self) { try view.save() }
        view.rollback()
        for book in author.books { view.delete(book) }
        view.delete(author)  // Author.portrait cascades
        try view.save()
        for type in [Book.self, Review.self, Author.self, Portrait.self] as [ManagedObject.Type] {
            let count = try await worker.perform { () throws -> Int in
                switch type {
                case is Book.Type: try worker.count(for: FetchRequest<Book>())
                case is Review.Type: try worker.count(for: FetchRequest<Review>())
                case is Author.Type: try worker.count(for: FetchRequest<Author>())
                default: try worker.count(for: FetchRequest<Portrait>())
                }
            }
            #expect(count == 0, "\(type) left in the store")
        }
    }

    /// From a review: a reference to an object whose ID became permanent (obtainPermanentIDs)
    /// follows it; and a comparison across a nil relationship matches as Swift's `!=` does.
    @Test func referencesFollowPermanentIDsAndNilRelationshipsCompareAsOptionals() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        let author = Author(context: context)
        author.name = "Gogol"
        let book = Book(context: context)
        book.title = "Dead Souls"
        book.author = author
        try context.obtainPermanentIDs(for: [author])
        #expect(author.books == [book])
        #expect(book.author === author)
        let orphan = Review(context: context)
        orphan.stars = 1
        let review = Review(context: context)
        review.stars = 2
        review.book = book
        try context.save()
        let fresh = container.newBackgroundContext()
        let stars = try fresh.performAndWait {
            try fresh.fetch(FetchRequest<Review>(predicate: #Predicate { $0.book?.title != "Dead Souls" })).map(\.stars)
        }
        #expect(stars == [1], "the review without a book is not titled Dead Souls")
        #expect(
            container.persistentStoreCoordinator.managedObjectID(
                forURIRepresentation: URL(
                    string: "x-managedstore://\(author.objectID.persistentStore!.identifier)/Author/p-1")!) == nil)
        #expect(
            container.persistentStoreCoordinator.managedObjectID(
                forURIRepresentation: URL(
                    string: "x-managedstore://\(author.objectID.persistentStore!.identifier)/Author/p999999999999999999"
                )!) == nil)
    }
}
