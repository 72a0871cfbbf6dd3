import Foundation
import ManagedStore
import TestSupport
import Testing

/// Core Data sorts by a key path through a to-one (`author.name`) with a join; so does
/// ManagedStore, in SQL for the stored rows and in memory for the context's unsaved changes
/// (an author renamed, a book given another author, new books and authors), the two merged as
/// one order. Checked over seeded libraries against the order the test works out itself from the
/// objects; a sort by the relationship itself is refused, never sorted by row keys.
@MainActor @Suite struct SortThroughToOneTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 4242

    static let names = ["Zola", "Austen", "austen", "Émile", "Eliot", "Ōe", "Brontë", "B", "Woolf", "Tolstoy"]

    /// The order the store's SQL gives (NULL first, text by UTF-8 bytes), ties by title.
    static func expected(_ books: [Book], descending: Bool) -> [String] {
        func name(_ book: Book) -> String? { book.author?.name }
        return books.sorted { a, b in
            let (x, y) = (name(a), name(b))
            if x != y {
                guard let x else { return !descending }
                guard let y else { return descending }
                return descending ? y.utf8.lexicographicallyPrecedes(x.utf8) : x.utf8.lexicographicallyPrecedes(y.utf8)
            }
            return a.title.utf8.lexicographicallyPrecedes(b.title.utf8)
        }.map(\.title)
    }

    @Test func booksSortByTheirAuthorsNamesSavedOrNot() throws {
        var generator = SeededGenerator(seed: Self.seed)
        for round in 0..<10 {
            let container = try LibraryModel.container()
            let context = container.viewContext
            var authors: [Author] = []
            var books: [Book] = []
            var serial = 0
            func book(by author: Author?) -> Book {
                serial += 1
                let book = Book(context: context)
                book.title = "t\(serial)"
                book.author = author
                books.append(book)
                return book
            }
            for name in Self.names.shuffled(using: &generator).prefix(6) {
                let author = Author(context: context)
                author.name = name
                authors.append(author)
                for _ in 0..<Int.random(in: 0...3, using: &generator) { _ = book(by: author) }
            }
            try context.save()
            // Unsaved: a rename, moves, a new author with books, a book without an author.
            authors.randomElement(using: &generator)!.name = Self.names.randomElement(using: &generator)! + "2"
            for _ in 0..<3 where !books.isEmpty {
                books.randomElement(using: &generator)!.author = authors.randomElement(using: &generator)!
            }
            let newcomer = Author(context: context)
            newcomer.name = Self.names.randomElement(using: &generator)! + "1"
            authors.append(newcomer)
            _ = book(by: newcomer)
            _ = book(by: nil)
            for descending in [false, true] {
                let request = FetchRequest<Book>(sortBy: [
                    SortDescriptor(\.author?.name, order: descending ? .reverse : .forward), SortDescriptor(\.title),
                ])
                let fetched = try context.fetch(request).map(\.title)
                #expect(
                    fetched == Self.expected(books, descending: descending),
                    "ECBRATES_SEED=\(Self.seed) round \(round) descending \(descending)")
            }
            // Saved (the book without an author removed: it may not be saved), the store's order alone.
            context.delete(books.removeLast())
            try context.save()
            let stored = try LibraryModel.titles(sortedByAuthorIn: container)
            #expect(
                stored == Self.expected(books, descending: false), "ECBRATES_SEED=\(Self.seed) round \(round), saved")
        }
    }

    /// Through two to-ones (`\Review.book?.author?.name`, Core Data's `book.author.name`):
    /// nested subqueries in the store, the chain of current objects in memory.
    @Test func reviewsSortByTheirBooksAuthorsNames() throws {
        var generator = SeededGenerator(seed: Self.seed)
        for round in 0..<8 {
            let container = try LibraryModel.container()
            let context = container.viewContext
            var authors: [Author] = []
            var books: [Book] = []
            var reviews: [Review] = []
            for name in Self.names.shuffled(using: &generator).prefix(4) {
                let author = Author(context: context)
                author.name = name
                authors.append(author)
            }
            for index in 0..<6 {
                let book = Book(context: context)
                book.title = "b\(index)"
                book.author = authors.randomElement(using: &generator)!
                books.append(book)
            }
            func review(_ book: Book?) {
                let review = Review(context: context)
                review.stars = Int16(reviews.count)
                review.book = book
                reviews.append(review)
            }
            for _ in 0..<12 { review(books.filter { $0.reviews.count < 3 }.randomElement(using: &generator)) }
            try context.save()
            // Unsaved: an author renamed, a book moved to another author, a new review.
            authors.randomElement(using: &generator)!.name = Self.names.randomElement(using: &generator)! + "3"
            books.randomElement(using: &generator)!.author = authors.randomElement(using: &generator)!
            review(books.filter { $0.reviews.count < 3 }.randomElement(using: &generator))
            func expected(descending: Bool) -> [Int16] {
                reviews.sorted { a, b in
                    let (x, y) = (a.book?.author?.name, b.book?.author?.name)
                    if x != y {
                        guard let x else { return !descending }
                        guard let y else { return descending }
                        return descending
                            ? y.utf8.lexicographicallyPrecedes(x.utf8) : x.utf8.lexicographicallyPrecedes(y.utf8)
                    }
                    return a.stars < b.stars
                }.map(\.stars)
            }
            for descending in [false, true] {
                let request = FetchRequest<Review>(sortBy: [
                    SortDescriptor(\.book?.author?.name, order: descending ? .reverse : .forward),
                    SortDescriptor(\.stars),
                ])
                #expect(
                    try context.fetch(request).map(\.stars) == expected(descending: descending),
                    "ECBRATES_SEED=\(Self.seed) round \(round) descending \(descending)")
            }
            try context.save()
            let reader = container.newBackgroundContext()
            let stored = try reader.performAndWait {
                try reader.fetch(
                    FetchRequest<Review>(sortBy: [SortDescriptor(\.book?.author?.name), SortDescriptor(\.stars)])
                ).map(\.stars)
            }
            #expect(stored == expected(descending: false), "ECBRATES_SEED=\(Self.seed) round \(round), saved")
        }
    }

    /// The fetched results controller orders by it too, in batches (IDs and sort keys read by
    /// SQL, the keys of unsaved objects from memory) and after a change it follows.
    @Test func aFetchedResultsControllerKeepsTheAuthorsOrder() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        var books: [Book] = []
        for (index, name) in ["Zola", "Austen", "Eliot"].enumerated() {
            let author = Author(context: context)
            author.name = name
            let book = Book(context: context)
            book.title = "t\(index)"
            book.author = author
            books.append(book)
        }
        try context.save()
        var request = FetchRequest<Book>(sortBy: [SortDescriptor(\.author?.name), SortDescriptor(\.title)])
        request.fetchBatchSize = 2
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        let delegate = CountingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        #expect(controller.fetchedObjects?.map(\.title) == Self.expected(books, descending: false))
        // As Core Data's, the controller follows its own entity: renaming an author is no round.
        books[0].author?.name = "Aaron"
        context.processPendingChanges()
        #expect(delegate.rounds == 0 && controller.fetchedObjects?.map(\.title) == ["t1", "t2", "t0"])
        // A change of a book is one, and the order then reads every author's name as it is now.
        books[2].author = books[1].author
        context.processPendingChanges()
        #expect(delegate.rounds == 1)
        #expect(controller.fetchedObjects?.map(\.title) == ["t0", "t1", "t2"])
    }

    /// Sections named through a to-one are refused (they would be named by row keys).
    @Test func sectionsThroughAToOneAreRefused() throws {
        let container = try LibraryModel.container()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Book>(sortBy: [SortDescriptor(\.author?.name)]),
            managedObjectContext: container.viewContext, sectionNameKeyPath: \Book.author?.name)
        #expect {
            try controller.performFetch()
        } throws: { error in
            "\(error)".contains("the section name key path goes through the to-one relationship 'author'")
        }
    }

    @Test func aSortByTheRelationshipItselfIsRefused() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        #expect {
            try context.fetch(FetchRequest<Book>(sortBy: [SortDescriptor(\.author?.description)]))
        } throws: { error in
            "\(error)"
                == "cannot fetch Book: a sort descriptor through the to-one relationship 'author' of Book that does not end at an attribute (the relationship itself, or a computed property); sort by an attribute of the destination (\\.author?.name), as Core Data sorts by 'author.name'"
        }
    }
}

/// Counts the rounds of changes a controller reports.
final class CountingDelegate: FetchedResultsControllerDelegate {
    var rounds = 0
    func controllerDidChangeContent(_ controller: FetchedResultsController<Book>) { rounds += 1 }
}

extension LibraryModel {
    /// The books' titles sorted by their authors' names, then titles, read by a new context.
    static func titles(sortedByAuthorIn container: PersistentContainer) throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            try reader.fetch(FetchRequest<Book>(sortBy: [SortDescriptor(\.author?.name), SortDescriptor(\.title)]))
                .map(\.title)
        }
    }
}
