import Foundation
import ManagedStore
import TestSupport
import Testing

/// A note that counts its awakenings, for the fault tests.
final class Memo: ManagedObject {
    @Attribute var text: String
    /// How many times `awakeFromFetch()` ran.
    var awakenings = 0
    /// How many times `awakeFromInsert()` ran.
    var insertions = 0

    override func awakeFromInsert() {
        super.awakeFromInsert()
        insertions += 1
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        awakenings += 1
    }
}

enum MemoModel {
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Memo", managedObjectClass: Memo.self,
            attributes: [AttributeDescription(name: "text", type: .string)])
    ])
}

/// A fetch request's result types (objects, IDs, dictionaries, a count), `propertiesToFetch`,
/// `returnsDistinctResults` and `returnsObjectsAsFaults`, as Apple documents them for
/// `NSFetchRequest` (quoted in each test).
@MainActor @Suite struct FetchResultTypeTests {
    /// Notes: a (stars 0, body nil, price 1.1790), b (1, "x", 10), c (2, "y", 9.5), d (3, nil, nil).
    private func fixture(in dir: TemporaryDirectory? = nil) throws -> PersistentContainer {
        let container = try makeContainer(in: dir)
        let view = container.viewContext
        let rows: [(String, Int16, String?, String?)] = [
            ("a", 0, nil, "1.1790"), ("b", 1, "x", "10"), ("c", 2, "y", "9.5"), ("d", 3, nil, nil),
        ]
        for (title, stars, body, price) in rows {
            let note = Note.make(title, stars: stars, body: body, in: view)
            note.price = price.flatMap { Decimal(string: $0) }
            note.created = Date(timeIntervalSince1970: Double(stars) * 86_400)
        }
        try view.save()
        view.reset()
        return container
    }

    /// A store of memos with `texts`, saved; the view context holds none of them.
    private func memos(_ texts: [String], in dir: TemporaryDirectory?) throws -> PersistentContainer {
        let container = try makeContainer(in: dir, name: "Memos", model: MemoModel.model)
        let view = container.viewContext
        for text in texts { Memo(context: view).text = text }
        try view.save()
        view.reset()
        return container
    }

    /// Apple, `NSFetchRequest.resultType`: "The default value is `managedObjectResultType`."
    /// `returnsObjectsAsFaults`: "The default value is true." `includesPendingChanges`: "The
    /// default value is true." `returnsDistinctResults`: "The default value is false."
    /// (developer.apple.com/documentation/coredata/nsfetchrequest)
    @Test func theDefaultsAreCoreDatas() {
        let request = Note.fetchRequest()
        #expect(request.resultType == .managedObjectResultType)
        #expect(request.returnsObjectsAsFaults)
        #expect(request.includesPendingChanges)
        #expect(!request.returnsDistinctResults)
        #expect(request.propertiesToFetch == nil)
        #expect(FetchRequest<ManagedObjectID>(entityName: "Note").resultType == .managedObjectIDResultType)
        #expect(FetchRequest<NSDictionary>(entityName: "Note").resultType == .dictionaryResultType)
        #expect(FetchRequest<NSNumber>(entityName: "Note").resultType == .countResultType)
    }

    /// `NSFetchRequestResultType.managedObjectIDResultType`: "The request returns managed object
    /// IDs." `fetch(_:)`: "The fetch results include any object in the context that's an
    /// instance of the request's entity, and that meets the request's criteria, even if the
    /// context has yet to save the object to a persistent store", and "don't include deleted
    /// objects". `insert(_:)`: the object "is registered in the receiver with a temporary
    /// global ID".
    @Test func objectIDsComeWithoutObjectsAndCountTheUnsavedChanges() throws {
        let container = try fixture()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // As Core Data code writes it, with the NS prefixes dropped.
            var request = FetchRequest<ManagedObjectID>(entityName: "Note")
            request.resultType = .managedObjectIDResultType
            request.setPredicate(#Predicate<Note> { $0.stars >= 1 }, sortBy: [SortDescriptor(\.stars, order: .reverse)])
            let ids = try context.fetch(request)
            #expect(context.registeredObjects.isEmpty, "no object was made")
            #expect(ids.allSatisfy { !$0.isTemporaryID && $0.entity.name == "Note" })
            #expect(ids.map { (context.object(with: $0) as! Note).title } == ["d", "c", "b"])

            let e = Note.make("e", stars: 5, in: context)
            context.delete(context.object(with: ids[0]))
            let pending = try context.fetch(request)
            #expect(pending == [e.objectID, ids[1], ids[2]])
            #expect(pending[0].isTemporaryID)
            request.includesPendingChanges = false
            #expect(try context.fetch(request) == ids)
        }
    }

    /// `propertiesToFetch`: "The property descriptions may represent attributes, to-one
    /// relationships, or expressions. The name of an attribute or relationship description
    /// must match the name of a description on the fetch request's entity." The values are
    /// Foundation's objects; an attribute that is nil has no key.
    @Test func dictionariesHoldTheNamedPropertiesAsFoundationValues() throws {
        let container = try fixture()
        let view = container.viewContext
        var request = FetchRequest<NSDictionary>(entity: Note.self, sortBy: [SortDescriptor(\.title)])
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["title", "stars", "price", "body"]
        let rows = try view.fetch(request)
        #expect(rows.count == 4)
        #expect(rows[0]["title"] as? String == "a")
        #expect(rows[0]["stars"] as? Int == 0)
        #expect(rows[0]["stars"] as? Int16 == 0)
        #expect(rows[0]["price"] as? Decimal == Decimal(string: "1.179"))
        #expect((rows[0]["price"] as? NSDecimalNumber)?.stringValue == "1.179")
        #expect(rows[0]["body"] == nil && rows[0].count == 3, "a nil body has no key")
        #expect(rows[1]["body"] as? String == "x" && rows[1].count == 4)
        #expect(rows[3]["price"] == nil && rows[3]["stars"] as? Int == 3)
        #expect(view.registeredObjects.isEmpty, "no object was made")

        // An empty list: empty dictionaries, one per object.
        request.propertiesToFetch = []
        #expect(try view.fetch(request).map(\.count) == [0, 0, 0, 0])
        // No propertiesToFetch: every attribute.
        request.propertiesToFetch = nil
        let whole = try view.fetch(request)
        #expect(Set(whole[1].allKeys.map { $0 as! String }) == ["title", "body", "stars", "created", "price"])
        #expect(whole[1]["created"] as? Date == Date(timeIntervalSince1970: 86_400))

        let counters = try makeContainer(in: nil, name: "Counters")
        let counter = Counter(context: counters.viewContext)
        counter.name = "c"
        counter.value = Int64.max
        counter.flag = true
        try counters.viewContext.save()
        let row = try counters.viewContext.fetch(FetchRequest<NSDictionary>(entityName: "Counter"))[0]
        #expect(row["value"] as? Int64 == Int64.max)
        #expect(row["flag"] as? Bool == true)
    }

    /// A to-one relationship's value in a dictionary is its destination's object ID.
    @Test func aToOneRelationshipComesAsItsDestinationsID() throws {
        let container = try LibraryModel.container()
        let view = container.viewContext
        let tolstoy = Author.make("Tolstoy", books: ["War and Peace"], in: view)
        try view.save()
        var request = FetchRequest<NSDictionary>(entityName: "Book")
        request.propertiesToFetch = ["title", "author"]
        let rows = try view.fetch(request)
        #expect(rows.count == 1)
        #expect(rows[0]["author"] as? ManagedObjectID == tolstoy.objectID)

        request.propertiesToFetch = ["title", "reviews"]
        #expect {
            try view.fetch(request)
        } throws: {
            "\($0)"
                == "cannot fetch Book: 'reviews' is a to-many relationship: propertiesToFetch takes attributes and to-one relationships"
        }
        request.propertiesToFetch = ["subtitle"]
        #expect {
            try view.fetch(request)
        } throws: {
            "\($0)"
                == "cannot fetch Book: propertiesToFetch names 'subtitle', which is not an attribute or to-one relationship of Book"
        }
    }

    /// `includesPendingChanges`: "A value of true is not supported in conjunction with the
    /// result type dictionaryResultType … For dictionaries, the array returned from the fetch
    /// reflects the current state in the persistent store, and does not take into account any
    /// pending changes, insertions, or deletions in the context."
    @Test func dictionariesReadTheStoreWhateverIsPending() throws {
        let container = try fixture()
        let view = container.viewContext
        let notes = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
        notes[1].title = "renamed"
        view.delete(notes[2])
        Note.make("new", in: view)
        var request = FetchRequest<NSDictionary>(entity: Note.self, sortBy: [SortDescriptor(\.title)])
        request.propertiesToFetch = ["title"]
        #expect(try view.fetch(request).map { $0["title"] as! String } == ["a", "b", "c", "d"])
    }

    /// `returnsDistinctResults`: "This value is used only if a value has been set for
    /// propertiesToFetch." Equal dictionaries come once, and the limit counts distinct ones.
    @Test func distinctResultsComeOnceBeforeTheLimit() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        for (title, stars) in [("a", 2), ("b", 2), ("c", 1), ("d", 2), ("e", 3), ("f", 1)] {
            Note.make(title, stars: Int16(stars), in: view)
        }
        try view.save()
        var request = FetchRequest<NSDictionary>(entity: Note.self, sortBy: [SortDescriptor(\.title)])
        request.propertiesToFetch = ["stars"]
        request.returnsDistinctResults = true
        #expect(try view.fetch(request).map { $0["stars"] as! Int } == [2, 1, 3])
        request.fetchLimit = 2
        #expect(try view.fetch(request).map { $0["stars"] as! Int } == [2, 1])
        request.fetchOffset = 1
        #expect(try view.fetch(request).map { $0["stars"] as! Int } == [1, 3])
        request.returnsDistinctResults = false
        #expect(try view.fetch(request).map { $0["stars"] as! Int } == [2, 1])
    }

    /// `NSFetchRequestResultType.countResultType`: "The request returns the count of the objects
    /// that match the request": one number, as `count(for:)` gives.
    @Test func theCountResultTypeIsOneNumber() throws {
        let container = try fixture()
        let view = container.viewContext
        var request = FetchRequest<NSNumber>(entityName: "Note")
        request.resultType = .countResultType
        #expect(try view.fetch(request) == [4])
        request.setPredicate(#Predicate<Note> { $0.stars > 1 })
        #expect(try view.fetch(request) == [2])
        Note.make("e", stars: 7, in: view)
        #expect(try view.fetch(request) == [3], "the unsaved note counts")
        #expect(try view.count(for: request) == 3)
        request.fetchLimit = 2
        #expect(try view.fetch(request) == [2])
    }

    /// A result type the request's type cannot hold, or a predicate typed by another entity's
    /// class, is refused by name (where Core Data's cast of the results would fail).
    @Test func aMismatchedRequestIsRefused() throws {
        let container = try fixture()
        let view = container.viewContext
        func refused<T: FetchRequestResult>(_ request: FetchRequest<T>, _ message: String) {
            #expect(throws: (any Error).self) { try view.fetch(request) }
            do {
                _ = try view.fetch(request)
            } catch {
                #expect("\(error)" == message)
            }
        }
        var request = Note.fetchRequest()
        request.resultType = .dictionaryResultType
        refused(
            request,
            "cannot fetch Note: the request's resultType is .dictionaryResultType, but it is a FetchRequest<Note>, whose results are objects: make it a FetchRequest<NSDictionary>"
        )
        var ids = FetchRequest<ManagedObjectID>(entityName: "Note")
        ids.resultType = .countResultType
        refused(
            ids,
            "cannot fetch Note: the request's resultType is .countResultType, but it is a FetchRequest<ManagedObjectID>, whose results are object IDs: make it a FetchRequest<NSNumber>"
        )
        ids.resultType = .managedObjectResultType
        refused(
            ids,
            "cannot fetch Note: the request's resultType is .managedObjectResultType, but it is a FetchRequest<ManagedObjectID>, whose results are object IDs: make it a FetchRequest<Note>"
        )
        var counters = FetchRequest<NSDictionary>(entityName: "Note")
        counters.setPredicate(#Predicate<Counter> { $0.value > 1 })
        counters.entityName = "Note"
        refused(
            counters,
            "cannot fetch Note: the predicate is typed by Counter, but the entity's objects are Note: type it by Note (#Predicate<Note>)"
        )
        refused(
            FetchRequest<Note>(entityName: "Counter"),
            "cannot fetch Counter: its objects are Counter, which a FetchRequest<Note> cannot return: make it a FetchRequest<Counter>"
        )
        refused(FetchRequest<NSNumber>(entityName: "Nope"), "the model has no entity Nope")
    }

    /// The example in docs/library.md, as written there.
    @Test func theLibraryGuidesExampleRunsAsWritten() throws {
        let container = try fixture()
        let context = container.viewContext
        Note.make("e", stars: 4, in: context)
        Note.make("f", stars: 5, in: context)
        try context.save()
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        var request = FetchRequest<NSDictionary>(entityName: "Note")  // Core Data's code, NS prefixes dropped
        request.resultType = .dictionaryResultType  // (what FetchRequest<NSDictionary> starts with)
        request.propertiesToFetch = ["title", "stars"]
        request.setPredicate(#Predicate<Note> { $0.stars > 3 }, sortBy: [SortDescriptor(\.title)])
        for row in try context.fetch(request) { print(row["title"] as! String, row["stars"] as! Int) }
        let ids = try context.fetch(
            FetchRequest<ManagedObjectID>(entity: Note.self, predicate: #Predicate { $0.stars > 3 }))
        let count = try context.fetch(FetchRequest<NSNumber>(Note.fetchRequest()))[0].intValue

        #expect(printed == ["e 4", "f 5"])
        #expect(ids.count == 2 && count == 6)
    }

    /// `FetchRequest<ManagedObjectID>(request)` keeps everything but the result type.
    @Test func aRequestBecomesOneOfAnotherResultType() throws {
        let container = try fixture()
        let view = container.viewContext
        var notes = FetchRequest<Note>(
            predicate: #Predicate { $0.stars < 3 }, sortBy: [SortDescriptor(\.title, order: .reverse)])
        notes.fetchOffset = 1
        let ids = try view.fetch(FetchRequest<ManagedObjectID>(notes))
        let count = try view.fetch(FetchRequest<NSNumber>(notes))
        let objects = try view.fetch(notes)
        #expect(objects.map(\.title) == ["b", "a"])
        #expect(ids == objects.map(\.objectID))
        #expect(count == [2])
        let back = FetchRequest<Note>(FetchRequest<NSDictionary>(notes))
        #expect(back.resultType == .managedObjectResultType)
        #expect(try view.fetch(back) == objects)
    }

    /// `returnsObjectsAsFaults`: "Core Data fetches the object data for the matching records,
    /// fills the row cache with the information, and returns managed object as faults. These
    /// faults are managed objects, but all of their property data resides in the row cache
    /// until the fault is fired. When the fault is fired, Core Data retrieves the data from the
    /// row cache." `awakeFromFetch()`: "an opportunity to add code into the life cycle of the
    /// managed object when fulfilling it from a fault".
    @Test func fetchedObjectsAreFaultsFiredFromTheRowCache() throws {
        let dir = TemporaryDirectory()
        let container = try memos(["one", "two", "three"], in: dir)
        let view = container.viewContext

        let memos = try view.fetch(FetchRequest<Memo>(sortBy: [SortDescriptor(\.text)]))
        #expect(memos.allSatisfy { $0.isFault && $0.awakenings == 0 })
        // The rows go behind the coordinator's back (another coordinator deletes them, whose
        // saves do not reach this one's row cache): a fault fired from the cache reads no store.
        let elsewhere = try makeContainer(in: dir, name: "Memos", model: MemoModel.model)
        let other = elsewhere.newBackgroundContext()
        try other.performAndWait { _ = try other.execute(BatchDeleteRequest(FetchRequest<Memo>())) }
        #expect(memos[0].text == "one")
        #expect(!memos[0].isFault && memos[0].awakenings == 1)
        // `stalenessInterval` 0: the cached values are too old, so firing reads the store, where
        // the row is gone (an inaccessible fault becomes a deleted object).
        view.stalenessInterval = 0
        #expect(memos[1].text == "")
        #expect(memos[1].isDeleted)
        view.stalenessInterval = -1
        #expect(memos[2].text == "two")
    }

    /// `returnsObjectsAsFaults` false: "the returned objects are pre-populated with their
    /// property values (making them fully-faulted objects, which will immediately return NO if
    /// sent the -isFault message)" (NSFetchRequest.h). Objects the context already holds come
    /// as they are: `fetch(_:)`: "Objects that have been realized … as well as pending updated,
    /// inserted, or deleted, are never changed by a fetch operation".
    @Test func objectsComeLoadedWhenAskedAndHeldOnesComeAsTheyAre() throws {
        let container = try memos(["one", "two"], in: nil)
        let view = container.viewContext
        var request = FetchRequest<Memo>(sortBy: [SortDescriptor(\.text)])
        request.returnsObjectsAsFaults = false
        let memos = try view.fetch(request)
        #expect(memos.allSatisfy { !$0.isFault && $0.awakenings == 1 })
        memos[0].text = "changed"
        request.returnsObjectsAsFaults = true
        let again = try view.fetch(request)
        #expect(again.map(\.text) == ["changed", "two"])
        #expect(again.allSatisfy { !$0.isFault && $0.awakenings == 1 }, "realized objects stay realized")
    }

    /// `includesPropertyValues` false: "Core Data fetches only the object ID information for the
    /// matching records—it does not populate the row cache. The returned objects are still
    /// managed objects; however, they are faults, and when a fault is fired, Core Data fetches
    /// the row's data." (developer.apple.com/documentation/coredata/nsfetchrequest/includespropertyvalues)
    @Test func withoutPropertyValuesObjectsAreFaultsThatReadTheStore() throws {
        let dir = TemporaryDirectory()
        let container = try memos(["one", "two", "three"], in: dir)
        let view = container.viewContext
        var request = FetchRequest<Memo>(sortBy: [SortDescriptor(\.text)])
        request.includesPropertyValues = false
        let memos = try view.fetch(request)
        #expect(memos.count == 3 && memos.allSatisfy { $0.isFault && $0.awakenings == 0 })
        // A change saved elsewhere since: firing reads the store, so it shows.
        let other = container.newBackgroundContext()
        try other.performAndWait {
            for memo in try other.fetch(FetchRequest<Memo>()) { memo.text += "!" }
            try other.save()
        }
        #expect(memos.map(\.text) == ["one!", "three!", "two!"])
        // The deletion idiom: objects to delete need no values. Unsaved changes count.
        Memo(context: view).text = "four"
        for memo in try view.fetch(request) { view.delete(memo) }
        try view.save()
        #expect(try view.count(for: FetchRequest<Memo>()) == 0)
    }

    /// A save through the same coordinator reaches the faults a fetch made, merged or not: Core
    /// Data's row cache belongs to the coordinator, and a save through it updates the cache. A
    /// fault whose row such a save changed reads the store when fired; one whose row it deleted
    /// becomes an inaccessible fault (deleted, as `shouldDeleteInaccessibleFaults` documents).
    @Test func aSaveThroughTheCoordinatorReachesTheFetchedFaults() throws {
        let dir = TemporaryDirectory()
        let container = try memos(["one", "three", "two"], in: dir)
        let view = container.viewContext
        let fetched = try view.fetch(FetchRequest<Memo>(sortBy: [SortDescriptor(\.text)]))
        #expect(fetched.allSatisfy { $0.isFault })
        let (first, second) = (fetched[0].objectID, fetched[1].objectID)
        let sibling = container.newBackgroundContext()
        try sibling.performAndWait {
            (try sibling.existingObject(with: first) as! Memo).text = "uno"
            sibling.delete(try sibling.existingObject(with: second))
            try sibling.save()
        }
        #expect(fetched[0].text == "uno")
        _ = fetched[1].text
        #expect(fetched[1].isDeleted)
        #expect(fetched[2].text == "two" && fetched[2].awakenings == 1)
    }

    /// Property: faults a fetch made fire to the values the test's own model predicts, through
    /// seeded random sibling saves (updates, deletions, insertions), batch updates and deletes,
    /// fetches again and firings: a fault with no save through the coordinator since the fetch
    /// that last filled it fires to that fetch's values (batch requests bypass the row cache,
    /// as in Core Data); after a save, to the store's values at firing, or deleted if the row
    /// is gone. A fired object keeps its values.
    @Test func faultsFireToTheRowCacheOrTheStoreAsTheModelPredicts() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        for round in 0..<8 {
            let dir = TemporaryDirectory()
            let initial = (0..<6).map { "m\($0)" }
            let container = try memos(initial, in: dir)
            let view = container.viewContext
            let sibling = container.newBackgroundContext()
            // The model: the store's rows (by text key → current text), saves so far, and per
            // object in the view: fired (its values) or a fault (its cached text and stamp).
            var stored: [String: String] = Dictionary(uniqueKeysWithValues: initial.map { ($0, $0) })
            var saves = 0
            var faults: [String: (text: String, stamp: Int)] = [:]
            var fired: [String: String?] = [:]
            var objects: [String: Memo] = [:]
            var serial = 0
            var log: [String] = []
            // Each object's key: its first text, read once through the sibling.
            var keyOf: [ManagedObjectID: String] = [:]
            try sibling.performAndWait {
                for memo in try sibling.fetch(FetchRequest<Memo>()) { keyOf[memo.objectID] = memo.text }
            }
            func fetch() throws {
                let request = FetchRequest<Memo>()
                let memos = try view.fetch(request)
                let byID = Dictionary(uniqueKeysWithValues: memos.map { ($0.objectID, $0) })
                for (key, memo) in objects where byID[memo.objectID] != nil && fired[key] == nil {
                    faults[key] = (stored[key]!, saves)
                }
                for memo in memos where !objects.values.contains(where: { $0 === memo }) {
                    let key = try #require(keyOf[memo.objectID])
                    objects[key] = memo
                    faults[key] = (stored[key]!, saves)
                }
            }
            /// Changes the memo of `key` in the sibling, and saves.
            func saveInSibling(_ key: String, _ change: (Memo) -> Void) throws {
                try sibling.performAndWait {
                    change(try sibling.fetch(FetchRequest<Memo>()).first { keyOf[$0.objectID] == key }!)
                    try sibling.save()
                }
            }
            try fetch()
            for _ in 0..<40 {
                let op = Int.random(in: 0..<7, using: &random)
                let pick = Int.random(in: 0..<1000, using: &random)
                let keys = stored.keys.sorted()
                switch op {
                case 0, 1:
                    guard !keys.isEmpty else { continue }
                    let key = keys[pick % keys.count]
                    serial += 1
                    let text = "\(key)-v\(serial)"
                    try saveInSibling(key) { $0.text = text }
                    stored[key] = text
                    saves += 1
                    log.append("save \(key)=\(text)")
                case 2:
                    guard !keys.isEmpty else { continue }
                    let key = keys[pick % keys.count]
                    try saveInSibling(key) { sibling.delete($0) }
                    stored[key] = nil
                    saves += 1
                    log.append("delete \(key)")
                case 3:
                    guard !keys.isEmpty else { continue }
                    let key = keys[pick % keys.count]
                    serial += 1
                    let text = "\(key)-b\(serial)"
                    let current = stored[key]!  // texts are unique
                    try sibling.performAndWait {
                        var request = BatchUpdateRequest<Memo>(
                            predicate: #Predicate { $0.text == current }, propertiesToUpdate: ["text": .string(text)])
                        request.resultType = .objectIDs
                        _ = try sibling.execute(request)
                        sibling.reset()
                    }
                    stored[key] = text
                    log.append("batch \(key)=\(text)")
                case 4:
                    try fetch()
                    log.append("fetch")
                default:
                    let candidates = objects.keys.filter { fired[$0] == nil }.sorted()
                    guard !candidates.isEmpty else { continue }
                    let key = candidates[pick % candidates.count]
                    let memo = objects[key]!
                    let cached = faults[key]!
                    let expected: String? = cached.stamp == saves ? cached.text : stored[key]
                    let text = memo.text
                    fired[key] = expected
                    log.append("fire \(key)")
                    let label = "seed \(seed), round \(round), steps \(log)"
                    if let expected {
                        #expect(text == expected && !memo.isDeleted, "\(label): \(key) fired to \(text)")
                    } else {
                        #expect(memo.isDeleted, "\(label): \(key)'s row is gone, so it is deleted")
                    }
                }
            }
        }
    }

    /// A fault whose row another context changed takes the change when a merge tells of it:
    /// the cached values are let go, and firing reads the store.
    @Test func aMergedChangeReachesAFaultFromTheRowCache() async throws {
        let dir = TemporaryDirectory()
        let container = try fixture(in: dir)
        let view = container.viewContext
        let notes = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes[0].isFault)
        let worker = container.newBackgroundContext()
        let id = notes[0].objectID
        let changes = try await worker.perform { () throws -> ContextSaveChanges in
            try captureDidSave(of: worker) { (try worker.existingObject(with: id) as! Note).stars = 9 }
        }
        view.mergeChanges(fromContextDidSave: changes)
        #expect(notes[0].stars == 9)
        view.refresh(notes[1], mergeChanges: false)
        #expect(notes[1].isFault && notes[1].title == "b")
    }

    /// Property: for seeded random notes, unsaved changes and requests (a predicate, an order,
    /// a limit and an offset), every result type agrees with the test's own copy of the notes:
    /// IDs and objects (and the count) with the unsaved changes, dictionaries and distinct
    /// dictionaries with the saved notes only; fetched objects the context did not hold come
    /// as faults, and hold the oracle's values when fired.
    @Test func everyResultTypeAgreesWithAModelTheTestKeeps() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "")
            ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        struct Row: Equatable {
            var title: String
            var stars: Int16
            var price: String?
        }
        for round in 0..<40 {
            let container = try makeContainer(in: nil)
            let context = container.newBackgroundContext()
            var saved: [String: Row] = [:]
            for index in 0..<Int.random(in: 0..<25, using: &random) {
                let price =
                    Bool.random(using: &random)
                    ? nil : "\(Int.random(in: 0..<1000, using: &random)).\(Int.random(in: 0..<100, using: &random))"
                saved["n\(index)"] = Row(
                    title: "n\(index)", stars: Int16.random(in: 0..<5, using: &random), price: price)
            }
            var current = saved
            var pendingTitles: [String] = []
            let (stars, limit, offset, descending) = (
                Int16.random(in: 0..<5, using: &random), Int.random(in: 0..<6, using: &random),
                Int.random(in: 0..<4, using: &random), Bool.random(using: &random)
            )
            var operations: [(Int, String, Int16)] = []
            for index in 0..<Int.random(in: 0..<6, using: &random) {
                operations.append(
                    (Int.random(in: 0..<3, using: &random), "p\(index)", Int16.random(in: 0..<5, using: &random)))
            }
            let context_ = "seed \(seed), round \(round)"
            try context.performAndWait {
                for row in saved.values {
                    let note = Note.make(row.title, stars: row.stars, in: context)
                    note.price = row.price.flatMap { Decimal(string: $0) }
                }
                try context.save()
                context.reset()
                let all = try context.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
                for (kind, title, value) in operations {
                    switch kind {
                    case 0:
                        Note.make(title, stars: value, in: context)
                        current[title] = Row(title: title, stars: value, price: nil)
                        pendingTitles.append(title)
                    case 1:
                        guard !all.isEmpty else { continue }
                        let note = all[Int(value) % all.count]
                        if note.isDeleted { continue }
                        note.stars = value
                        current[note.title]?.stars = value
                        pendingTitles.append(note.title)
                    default:
                        guard !all.isEmpty else { continue }
                        let note = all[(Int(value) * 7 + 1) % all.count]
                        if note.isDeleted { continue }
                        context.delete(note)
                        current[note.title] = nil
                    }
                }
                func expected(_ rows: [String: Row]) -> [Row] {
                    let selected = rows.values.filter { $0.stars >= stars }.sorted {
                        $0.stars != $1.stars
                            ? (descending ? $0.stars > $1.stars : $0.stars < $1.stars) : $0.title < $1.title
                    }
                    let cut = selected.dropFirst(offset)
                    return Array(limit > 0 ? cut.prefix(limit) : cut)
                }
                var request = FetchRequest<Note>(
                    predicate: #Predicate { $0.stars >= stars },
                    sortBy: [SortDescriptor(\.stars, order: descending ? .reverse : .forward), SortDescriptor(\.title)])
                request.fetchLimit = limit
                request.fetchOffset = offset
                let withPending = expected(current)

                let objects = try context.fetch(request)
                let faults = objects.map(\.isFault)
                #expect(objects.map(\.title) == withPending.map(\.title), "\(context_): objects")
                let ids = try context.fetch(FetchRequest<ManagedObjectID>(request))
                #expect(ids == objects.map(\.objectID), "\(context_): IDs")
                #expect(try context.fetch(FetchRequest<NSNumber>(request)) == [NSNumber(value: withPending.count)])
                for (index, (object, row)) in zip(objects, withPending).enumerated() {
                    #expect(faults[index] == !pendingTitles.contains(row.title), "\(context_): \(row.title) a fault")
                    #expect(
                        object.stars == row.stars && object.price == row.price.flatMap { Decimal(string: $0) },
                        "\(context_): \(row.title)")
                }

                var dictionaries = FetchRequest<NSDictionary>(request)
                dictionaries.propertiesToFetch = ["title", "stars", "price"]
                let rows = try context.fetch(dictionaries).map { dictionary in
                    Row(
                        title: dictionary["title"] as! String, stars: dictionary["stars"] as! Int16,
                        price: (dictionary["price"] as? NSDecimalNumber)?.stringValue)
                }
                let storedRows = expected(saved).map { row in
                    Row(
                        title: row.title, stars: row.stars,
                        price: row.price.map { "\(Decimal(string: $0)!)" })
                }
                #expect(rows == storedRows, "\(context_): dictionaries")

                dictionaries.propertiesToFetch = ["stars"]
                dictionaries.returnsDistinctResults = true
                var seen = Set<Int16>()
                let distinct = saved.values.filter { $0.stars >= stars }.sorted {
                    $0.stars != $1.stars
                        ? (descending ? $0.stars > $1.stars : $0.stars < $1.stars) : $0.title < $1.title
                }.map(\.stars).filter { seen.insert($0).inserted }.dropFirst(offset)
                #expect(
                    try context.fetch(dictionaries).map { $0["stars"] as! Int16 }
                        == Array(limit > 0 ? distinct.prefix(limit) : distinct), "\(context_): distinct")
            }
        }
    }
}
