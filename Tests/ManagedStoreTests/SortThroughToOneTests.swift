import Foundation
import ManagedStore
import Testing

/// Core Data sorts by a key path through a to-one (`author.name`) with a join. ManagedStore does
/// not translate that yet; it must say so, never sort by the relationship's row keys, which
/// gives an order that looks right until the keys and the names disagree.
@MainActor @Suite struct SortThroughToOneTests {
    @Test func aSortThroughAToOneIsRefusedNamingTheRelationship() throws {
        let container = try LibraryModel.container()
        let context = container.viewContext
        // Inserted so that the authors' row keys run against their names.
        for name in ["Zola", "Austen"] {
            let author = Author(context: context)
            author.name = name
            let book = Book(context: context)
            book.title = "by \(name)"
            book.author = author
        }
        try context.save()
        #expect {
            try context.fetch(FetchRequest<Book>(sortBy: [SortDescriptor(\.author?.name)]))
        } throws: { error in
            "\(error)"
                == "cannot fetch Book: a sort descriptor through the to-one relationship 'author' of Book (Core Data's 'author.name' key path); sort by an attribute of Book, or sort the fetched objects in Swift"
        }
        // Sorting by an attribute of its own still works.
        let titles = try context.fetch(FetchRequest<Book>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        #expect(titles == ["by Austen", "by Zola"])
    }
}
