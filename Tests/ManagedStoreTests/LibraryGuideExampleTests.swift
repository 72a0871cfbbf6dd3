import Foundation
import ManagedStore
import TestSupport
import Testing

/// The examples of `docs/library.md` for what round 4 brought (a to-many read is no fault,
/// `changedValues()` with relationships, `@sum` and the other functions, a staged migration
/// that makes an attribute mandatory), run as written: each test runs the lines between
/// `// docs/library.md: <name>` and `// end of the example`, and
/// ``theGuideShowsEachExampleWordForWord()`` checks that the guide's swift block marked
/// `<!-- example: <name> … -->` is those lines, so that the guide cannot drift from what runs.
@Suite struct LibraryGuideExampleTests {
    /// The marked regions of this file, by name, their common indentation taken off.
    static func examplesInThisFile(_ path: String = #filePath) throws -> [String: String] {
        try regions(in: String(contentsOfFile: path, encoding: .utf8), start: "// docs/library.md: ") {
            $0.trimmingCharacters(in: .whitespaces) == "// end of the example"
        }
    }

    /// The guide's swift blocks after an `<!-- example: <name> … -->` line, by name.
    static func examplesInTheGuide() throws -> [String: String] {
        let guide = try String(
            contentsOf: FixturePaths.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        var found: [String: String] = [:]
        let lines = guide.components(separatedBy: "\n")
        for (index, line) in lines.enumerated() where line.hasPrefix("<!-- example: ") {
            let name = String(line.dropFirst("<!-- example: ".count).prefix { $0 != " " && $0 != "," })
            guard index + 1 < lines.count, lines[index + 1] == "```swift" else { continue }
            let body = lines[(index + 2)...].prefix { $0 != "```" }
            found[name] = body.joined(separator: "\n")
        }
        return found
    }

    /// The regions of `text` that begin after a line that is `start` + name and end before
    /// a line for which `isEnd` holds, dedented.
    static func regions(in text: String, start: String, isEnd: (String) -> Bool) -> [String: String] {
        var found: [String: String] = [:]
        let lines = text.components(separatedBy: "\n")
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(start) else {
                index += 1
                continue
            }
            let name = String(line.dropFirst(start.count)).trimmingCharacters(in: .whitespaces)
            let body = lines[(index + 1)...].prefix { !isEnd($0) }
            let indent =
                body.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map {
                    $0.prefix { $0 == " " }.count
                }.min() ?? 0
            found[name] = body.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
                .joined(separator: "\n")
            index += body.count + 1
        }
        return found
    }

    @Test func theGuideShowsEachExampleWordForWord() throws {
        try Self.expectTheGuideShows(Self.examplesInThisFile(), count: 4)
    }

    /// Expects `count` examples, each shown in the guide word for word.
    static func expectTheGuideShows(_ run: [String: String], count: Int) throws {
        let shown = try examplesInTheGuide()
        #expect(run.count == count, "\(run.keys.sorted())")
        for (name, code) in run {
            let guide = try #require(shown[name], "docs/library.md has no block marked <!-- example: \(name) -->")
            #expect(
                guide == code, "docs/library.md's \(name) differs from what this test runs:\n\(guide)\n---\n\(code)")
        }
    }

    /// Apple: a relationship fault fires when it is accessed, and `hasFault(forRelationshipNamed:)`
    /// "Returns a Boolean value that indicates whether the relationship for a given key is a fault".
    @Test func aToManyReadIsNoLongerAFault() throws {
        let container = try LibraryModel.container()
        let writer = container.newBackgroundContext()
        let tolstoyID = try writer.performAndWait { () throws -> ManagedObjectID in
            let author = Author(context: writer)
            author.name = "Tolstoy"
            for title in ["War and Peace", "Anna Karenina"] {
                let book = Book(context: writer)
                book.title = title
                book.author = author
            }
            try writer.save()
            return author.objectID
        }
        let context = container.newBackgroundContext()
        context.performAndWait {
            // docs/library.md: relationship-fault
            let author = context.object(with: tolstoyID) as! Author
            let before = author.hasFault(forRelationshipNamed: "books")  // true: not read yet, and asking fires nothing
            let count = author.books.count  // 2: reading fires the fault, and keeps its members
            let after = author.hasFault(forRelationshipNamed: "books")  // false: the next read fetches nothing
            context.refresh(author, mergeChanges: false)
            let refreshed = author.hasFault(forRelationshipNamed: "books")  // true again
            // end of the example
            #expect(before && count == 2 && !after && refreshed)
        }
    }

    /// Apple: `changedValues()` gives "the keys and new values of persistent properties with
    /// changes since the last fetching or saving"; a relationship is a persistent property.
    @Test func aLinkIsAChangedValueOnBothSides() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "School", model: SchoolModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ann = Student.named("Ann", in: context)
            let math = Course.named("Math", in: context), art = Course.named("Art", in: context)
            ann.courses.insert(art)
            try context.save()
            let (annID, mathID, artID) = (ann.objectID, math.objectID, art.objectID)
            // docs/library.md: changed-relationships
            ann.courses.insert(math)
            let changed = ann.changedValues()  // ["courses": .objects([artID, mathID])]: the new members
            let inverse = math.changedValues()  // ["students": .objects([annID])]: the inverse side too
            let saved = ann.committedValues(forKeys: ["courses"])  // ["courses": .objects([artID])]
            let event = ann.changedValuesForCurrentEvent()  // ["courses": .objects([artID])]: the old value
            // end of the example
            #expect(changed == ["courses": .objects([artID, mathID])])
            #expect(inverse == ["students": .objects([annID])])
            #expect(saved == ["courses": .objects([artID])] && event == ["courses": .objects([artID])])
        }
    }

    /// Apple, `NSDerivedAttributeDescription`: "to-many keypath with a function … Supported
    /// functions include @count and @sum".
    @Test func aSumOverAToManyIsDerivedByTheStore() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Sagas", model: DerivedAggregateTests.model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // docs/library.md: derived-sum
            let saga = Saga(context: context)
            saga.title = "In Search of Lost Time"
            for pages in [Int64(512), 608, 720] {
                let book = SagaBook(context: context)
                book.pages = pages
                book.saga = saga
            }
            try context.save()
            let total = saga.totalPages  // 1840: "books.@sum.pages", computed by SQLite in the save
            let mean = saga.meanPages  // 613.33…: "books.@avg.pages"
            let broken = DerivedAggregateTests.model(extra: [
                AttributeDescription(name: "oops", type: .integer64, derivationExpression: "books.@median.pages")
            ])
            let refusal = #expect(throws: ManagedStoreError.self) { try broken.validate() }  // invalidModel: "oops" …
            // end of the example
            #expect(total == 1840 && abs((mean ?? 0) - 1840.0 / 3) < 1e-9)
            #expect("\(refusal.map { "\($0)" } ?? "")".contains("oops"))
        }
    }

    /// Apple, `NSCustomMigrationStage`: a willMigrateHandler "that sets any nil instances of
    /// that attribute to a default value, thereby ensuring the migration succeeds".
    @Test func aHandlerThatFillsTheNilsMakesAnAttributeMandatory() throws {
        let dir = TemporaryDirectory()
        let url = try MandatoryMigrationTests.store(in: dir)
        let (v1, v2) = (
            StagedMigrationTests.reference(MandatoryMigrationTests.v1),
            StagedMigrationTests.reference(MandatoryMigrationTests.v2)
        )
        // docs/library.md: mandatory-migration
        let stage = CustomMigrationStage(migratingFrom: v1, to: v2)  // v2: nickname is no longer optional
        stage.willMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
                where item.value(forKey: "nickname") == nil {
                    item.setValue("unnamed", forKey: "nickname")
                }
                try context.save()
            }
        }
        var description = PersistentStoreDescription(url: url)
        description.stagedMigrationManager = StagedMigrationManager([stage])
        // The rows are judged after the handler, in the same transaction: one still nil would
        // fail the migration, naming its object, with nothing changed.
        // end of the example
        let container = PersistentContainer(name: "Staged", managedObjectModel: MandatoryMigrationTests.v2)
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil, "\(String(describing: failure))")
        let names = try container.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map {
            $0.value(forKey: "nickname") as? String
        }
        #expect(names.sorted { ($0 ?? "") < ($1 ?? "") } == ["one", "unnamed", "unnamed"])
    }
}
