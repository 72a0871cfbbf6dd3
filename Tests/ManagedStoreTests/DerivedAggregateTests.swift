import Foundation
import ManagedStore
import TestSupport
import Testing

final class Saga: ManagedObject {
    @Attribute var title: String
    @Attribute var totalPages: Int64?
    @Attribute var fewestPages: Int64?
    @Attribute var mostPages: Int64?
    @Attribute var meanPages: Double?
    @Attribute var tagWeight: Double?
    @Relationship var books: Set<SagaBook>
    @Relationship var tags: Set<SagaTag>
}

final class SagaBook: ManagedObject {
    @Attribute var pages: Int64
    @Relationship var saga: Saga?
}

final class SagaTag: ManagedObject {
    @Attribute var weight: Double
    @Relationship var sagas: Set<Saga>
}

/// Apple, `NSDerivedAttributeDescription`: a derivation may be a "to-many keypath with a
/// function … Supported functions include @count and @sum". ManagedStore computes @sum, @min,
/// @max and @avg (Key-Value Coding's collection operators) over a to-many's or a
/// many-to-many's members, in SQL, in the save's transaction; an expression it does not
/// compute is an error of the model, never a trap.
@Suite struct DerivedAggregateTests {
    static func model(extra: [AttributeDescription] = []) -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Saga", managedObjectClass: Saga.self,
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(
                        name: "totalPages", type: .integer64, derivationExpression: "books.@sum.pages"),
                    AttributeDescription(
                        name: "fewestPages", type: .integer64, derivationExpression: "books.@min.pages"),
                    AttributeDescription(name: "mostPages", type: .integer64, derivationExpression: "books.@max.pages"),
                    AttributeDescription(name: "meanPages", type: .double, derivationExpression: "books.@avg.pages"),
                    AttributeDescription(name: "tagWeight", type: .double, derivationExpression: "tags.@sum.weight"),
                ] + extra,
                relationships: [
                    .toMany("books", destination: "SagaBook", inverse: "saga"),
                    .toMany("tags", destination: "SagaTag", inverse: "sagas"),
                ]),
            EntityDescription(
                name: "SagaBook", managedObjectClass: SagaBook.self,
                attributes: [AttributeDescription(name: "pages", type: .integer64)],
                relationships: [.toOne("saga", destination: "Saga", inverse: "books")]),
            EntityDescription(
                name: "SagaTag", managedObjectClass: SagaTag.self,
                attributes: [AttributeDescription(name: "weight", type: .double)],
                relationships: [.toMany("sagas", destination: "Saga", inverse: "tags")]),
        ])
    }

    /// Property: after any seeded sequence of inserts, moves, page changes, deletions, tag
    /// links and unlinks, each saved, every saga's derived values (read after a refresh) are
    /// those the test computes from the graph it keeps itself (the sum 0, the others nil,
    /// without members).
    @Test func sumsMinimaMaximaAndMeansFollowEveryChange() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Sagas", model: Self.model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let sagas = (0..<4).map { index -> Saga in
                let saga = Saga(context: context)
                saga.title = "saga \(index)"
                return saga
            }
            var books: [SagaBook] = []
            let tags = (0..<4).map { index -> SagaTag in
                let tag = SagaTag(context: context)
                tag.weight = Double(index) + 0.25
                return tag
            }
            for round in 0..<40 {
                for _ in 0..<3 {
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0, 1:
                        let book = SagaBook(context: context)
                        book.pages = Int64.random(in: 1...900, using: &random)
                        book.saga = sagas.randomElement(using: &random)
                        books.append(book)
                    case 2 where !books.isEmpty:
                        books.randomElement(using: &random)!.saga =
                            Bool.random(using: &random)
                            ? sagas.randomElement(using: &random) : nil
                    case 3 where !books.isEmpty:
                        books.randomElement(using: &random)!.pages = Int64.random(in: 1...900, using: &random)
                    case 4 where !books.isEmpty:
                        let index = Int.random(in: 0..<books.count, using: &random)
                        context.delete(books.remove(at: index))
                    default:
                        let saga = sagas.randomElement(using: &random)!, tag = tags.randomElement(using: &random)!
                        if saga.tags.contains(tag) { saga.tags.remove(tag) } else { saga.tags.insert(tag) }
                    }
                }
                try context.save()
                for saga in sagas {
                    // A saga the save did not write takes the store's values when refreshed
                    // (as for @count: the objects the save wrote take them at once).
                    context.refresh(saga, mergeChanges: false)
                    let pages = books.filter { $0.saga === saga }.map(\.pages)
                    let weights = saga.tags.map(\.weight)
                    let label = "seed \(seed) round \(round) \(saga.title)"
                    #expect(saga.totalPages == pages.reduce(0, +), "\(label)")
                    #expect(saga.fewestPages == pages.min(), "\(label)")
                    #expect(saga.mostPages == pages.max(), "\(label)")
                    let mean = pages.isEmpty ? nil : Double(pages.reduce(0, +)) / Double(pages.count)
                    #expect(saga.meanPages.map { abs($0 - mean!) < 1e-9 } ?? (mean == nil), "\(label)")
                    #expect(abs((saga.tagWeight ?? -1) - weights.reduce(0, +)) < 1e-9, "\(label)")
                }
            }
        }
    }

    /// An expression ManagedStore does not compute, or that does not fit the entity, is an
    /// error of the model: `validate()` throws it, naming the attribute and why, and loading a
    /// store with the model fails with it before the file is touched. (It trapped.)
    @Test(arguments: [
        ("books.@median.pages", AttributeType.integer64, "does not compute"),
        (
            "books.@sum.title", AttributeType.integer64,
            "needs a to-many relationship and an attribute of its destination"
        ),
        ("books.@avg.pages", AttributeType.integer64, "is integer64, but @avg of SagaBook.pages is double"),
        ("tags.@max.weight", AttributeType.string, "is string, but @max of SagaTag.weight is double"),
        ("title.@sum.pages", AttributeType.integer64, "names 'title', which is not a relationship of Saga"),
    ])
    func anExpressionItCannotComputeIsAnErrorOfTheModel(expression: String, type: AttributeType, words: String) throws {
        let model = Self.model(extra: [
            AttributeDescription(name: "odd", type: type, derivationExpression: expression)
        ])
        #expect {
            try model.validate()
        } throws: { error in
            "\(error)".contains("Saga.odd") && "\(error)".contains(words)
        }
        let dir = TemporaryDirectory()
        #expect(throws: ManagedStoreError.self) { _ = try makeContainer(in: dir, name: "Odd", model: model) }
        #expect(!FileManager.default.fileExists(atPath: dir.file("Odd.sqlite").path), "nothing written")
    }
}
