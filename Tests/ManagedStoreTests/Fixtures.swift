import Foundation
import ManagedStore

// Builders for the objects the tests start from, so that a test says what it starts with in one
// line and the lines that follow are the behaviour under test.

extension Note {
    /// A note in `context` (not saved) with the given values.
    @discardableResult
    static func make(_ title: String, stars: Int16 = 0, body: String? = nil, in context: ManagedObjectContext) -> Note {
        let note = Note(context: context)
        note.title = title
        note.stars = stars
        note.body = body
        return note
    }
}

/// Saves a note with the given values through a background context; its permanent ID.
/// The starting row of a conflict test (another context then inserts or edits against it).
func storedNote(
    _ title: String, stars: Int16 = 0, body: String? = nil, in container: PersistentContainer
) async throws -> ManagedObjectID {
    try await container.performBackgroundTask { context in
        let note = Note.make(title, stars: stars, body: body, in: context)
        try context.save()
        return note.objectID
    }
}

/// Saves a counter named `name` through a background context; its permanent ID. The row two
/// contexts then change, for the optimistic-locking tests.
func storedCounter(_ name: String, in container: PersistentContainer) async throws -> ManagedObjectID {
    try await container.performBackgroundTask { context in
        let counter = Counter(context: context)
        counter.name = name
        try context.save()
        return counter.objectID
    }
}

extension Author {
    /// An author in `context` (not saved) with books titled `books`, each with reviews of
    /// `stars`, and a portrait when `portrait` is given: the relationship tests' library.
    @discardableResult
    static func make(
        _ name: String, books: [String] = [], stars: [Int16] = [], portrait: String? = nil,
        in context: ManagedObjectContext
    ) -> Author {
        let author = Author(context: context)
        author.name = name
        for title in books { Book.make(title, by: author, stars: stars, in: context) }
        if let portrait {
            let picture = Portrait(context: context)
            picture.caption = portrait
            picture.sitter = author
        }
        return author
    }
}

extension Book {
    /// A book in `context` (not saved) by `author`, with a review for each of `stars`.
    @discardableResult
    static func make(
        _ title: String, by author: Author?, stars: [Int16] = [], in context: ManagedObjectContext
    )
        -> Book
    {
        let book = Book(context: context)
        book.title = title
        book.author = author
        for value in stars {
            let review = Review(context: context)
            review.stars = value
            review.book = book
        }
        return book
    }
}
