import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ManagedStore

/// Core Data's `NSFetchedResultsController`, as `FetchedResultsController`: its rules on the
/// request, its sections, the changes it reports and their index paths (UITableView's batch
/// update conventions), what it follows, and batched faulting.
@MainActor @Suite struct FetchedResultsControllerTests {
    // MARK: The request

    /// Core Data: "The fetch request must have at least one sort descriptor."
    @Test func performFetchRefusesARequestWithoutSortDescriptors() throws {
        let container = try makeContainer(in: nil)
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(), managedObjectContext: container.viewContext)
        #expect(throws: ManagedStoreError.self) { try controller.performFetch() }
        #expect(
            message(of: try controller.performFetch())
                == "cannot fetch Note: a fetched results controller needs at least one sort descriptor")
        #expect(controller.fetchedObjects == nil)
        #expect(controller.sections == nil)
    }

    /// Core Data: with a `sectionNameKeyPath`, "the first sort descriptor in the array is used to
    /// group the objects into sections; its key must either be the same as sectionNameKeyPath
    /// or …" ("otherwise, the fetch fails"). Here it must be the same attribute, and the key
    /// path must name an attribute (the store sorts by it).
    @Test func sectionsNeedTheFirstSortDescriptorToSortByTheSectionAttribute() throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let wrongOrder = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.created), SortDescriptor(\.title)]),
            managedObjectContext: view, sectionNameKeyPath: \.title)
        #expect(
            message(of: try wrongOrder.performFetch())
                == "cannot fetch Note: sections by 'title' need the first sort descriptor to sort by 'title'")

        let computed = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]), managedObjectContext: view,
            sectionNameKeyPath: \.shout)
        #expect(
            message(of: try computed.performFetch())
                == "cannot fetch Note: the section name key path is not an attribute of Note")

        let descending = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.title, order: .reverse)]),
            managedObjectContext: view, sectionNameKeyPath: \.title)
        #expect(message(of: try descending.performFetch()) == nil, "either direction groups the sections")
    }

    // MARK: Results and sections

    /// Core Data: `sections` are the runs of equal section-key values, in the order of the first
    /// sort descriptor, named by the value; `object(at:)` and `indexPath(forObject:)` address
    /// objects by (section, item).
    @Test func sectionsGroupTheResultsByTheSectionKeyInSortOrder() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "b", "c", "d", "e"], into: container)
        let view = container.viewContext
        for note in try view.fetch(FetchRequest<Note>()) { note.stars = note.title < "c" ? 5 : 1 }
        try view.save()

        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [
                SortDescriptor(\.stars, order: .reverse), SortDescriptor(\.title),
            ]),
            managedObjectContext: view, sectionNameKeyPath: \Note.stars)
        try controller.performFetch()
        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["5", "1"])
        #expect(sections.map(\.numberOfObjects) == [2, 3])
        #expect(sections.map { $0.objects.map(\.title) } == [["a", "b"], ["c", "d", "e"]])
        #expect(controller.fetchedObjects?.map(\.title) == ["a", "b", "c", "d", "e"])
        #expect(controller.object(at: path(1, 2)).title == "e")
        let d = controller.object(at: path(1, 1))
        #expect(controller.indexPath(forObject: d) == path(1, 1))
    }

    /// Core Data: without a section key path there is one section, named "" here, even when
    /// there is no result; `indexPath(forObject:)` is nil for an object that is not a result.
    @Test func withoutASectionKeyPathThereIsOneSectionEvenWhenEmpty() async throws {
        let container = try makeContainer(in: nil)
        let view = container.viewContext
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(
                predicate: #Predicate { $0.stars > 100 }, sortBy: [SortDescriptor(\.title)]),
            managedObjectContext: view)
        try controller.performFetch()
        #expect(controller.sections?.count == 1)
        #expect(controller.sections?.first?.name == "")
        #expect(controller.sections?.first?.numberOfObjects == 0)
        #expect(controller.fetchedObjects?.isEmpty == true)
        let outsider = insertNote("x", into: view)
        #expect(controller.indexPath(forObject: outsider) == nil)
    }

    /// Sections by an attribute of another type than String (the typed alternative to Core
    /// Data's string key path): named by the value; an optional's nil names the section "".
    @Test func sectionsByAnOptionalAttributeNameNilAsEmpty() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "b", "c"], into: container)
        let view = container.viewContext
        let notes = try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
        notes[1].body = "memo"
        try view.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.body), SortDescriptor(\.title)]),
            managedObjectContext: view, sectionNameKeyPath: \Note.body)
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["", "memo"], "nil sorts first, as in the store")
        #expect(controller.sections?.map(\.indexTitle) == [nil, "M"])
        #expect(controller.sections?.map { $0.objects.map(\.title) } == [["a", "c"], ["b"]])
    }

    // MARK: Changes and their index paths

    /// Core Data: an insertion is reported with `newIndexPath` (indexPath nil), a deletion with
    /// `indexPath` (newIndexPath nil), bracketed by will/didChangeContent; the controller
    /// already has the new results during the calls.
    @Test func insertionsAndDeletionsAreReportedAtTheirIndexPaths() async throws {
        let (view, controller, recorder) = try await trackedNotes(["a", "c", "e"])

        let b = insertNote("b", into: view)
        view.delete(controller.object(at: path(0, 2)))  // "e"
        view.processPendingChanges()
        #expect(recorder.log == ["will", "delete e 0.2→", "insert b →0.1", "did"])
        #expect(recorder.seenDuringChanges == ["a", "b", "c"])
        #expect(controller.fetchedObjects?.map(\.title) == ["a", "b", "c"])
        #expect(controller.indexPath(forObject: b) == path(0, 1))
    }

    /// Core Data: "A move is reported when the changed attribute on the object is one of the
    /// sort descriptors used in the fetch request", from the old index path to the new one; an
    /// object that only shifts because others were inserted or deleted before it is not
    /// reported.
    @Test func aSortKeyChangeThatReordersIsAMoveFromTheOldIndexPathToTheNew() async throws {
        let (view, controller, recorder) = try await trackedNotes(["a", "b", "c", "d"])

        controller.object(at: path(0, 0)).title = "z"  // a → the end
        view.delete(controller.object(at: path(0, 1)))  // b
        view.processPendingChanges()
        #expect(
            recorder.log == ["will", "delete b 0.1→", "move z 0.0→0.2", "did"],
            "c and d shift up without being reported")
        #expect(controller.fetchedObjects?.map(\.title) == ["c", "d", "z"])
    }

    /// Core Data documents "an update is reported when an object's state changes, but the
    /// changed attributes aren't part of the sort keys", and up to iOS 8 reported a sort-key
    /// change that leaves the object where it was as an update too; iOS 9 reported a move with
    /// equal index paths, which was filed as a bug (rdar://22380191, rdar://23037698) and which
    /// table views cannot apply. Here: an update, at the old index path, even when insertions
    /// and deletions around it change its new one.
    @Test func aChangeThatLeavesTheObjectInPlaceIsAnUpdateAtTheOldIndexPath() async throws {
        let (view, controller, recorder) = try await trackedNotes(["a", "c", "e"])

        controller.object(at: path(0, 1)).title = "d"  // c → d: a sort key, same place
        view.processPendingChanges()
        #expect(recorder.log == ["will", "update d 0.1→0.1", "did"])

        recorder.log = []
        view.delete(controller.object(at: path(0, 0)))  // a
        controller.object(at: path(0, 2)).body = "edited"  // e: not a sort key
        view.processPendingChanges()
        #expect(
            recorder.log == ["will", "delete a 0.0→", "update e 0.2→0.1", "did"],
            "the update's index path is the old one; the delegate also gets the new one")
        #expect(
            recorder.rounds.last?.objectChanges.last
                == .update(controller.object(at: path(0, 1)).objectID, at: path(0, 2)))
    }

    /// Core Data: "The fetched results controller reports changes to its section before changes
    /// to the fetched objects"; a section appears with the first object of its key and
    /// disappears with the last, each reported with the object's own change.
    @Test func sectionsAppearAndDisappearBeforeTheirObjectsChanges() async throws {
        let (view, controller, recorder) = try await trackedNotes(["a", "b", "c"], sectionedByStars: true)  // stars 0, 1, 2
        #expect(controller.sections?.map(\.name) == ["0", "1", "2"])

        controller.object(at: path(1, 0)).stars = 7  // b leaves section "1" for a new "7"
        view.processPendingChanges()
        #expect(recorder.log == ["will", "section delete 1 '1'", "section insert 2 '7'", "move b 1.0→2.0", "did"])
        #expect(controller.sections?.map(\.name) == ["0", "2", "7"])

        recorder.log = []
        let d = insertNote("d", into: view)
        d.stars = 2
        view.processPendingChanges()
        #expect(recorder.log == ["will", "insert d →1.1", "did"], "no section change: section '2' exists")
        #expect(controller.sections?.map(\.numberOfObjects) == [1, 2, 1])
    }

    // MARK: What is followed

    /// Core Data's controller follows another context's save merged into its context
    /// (`mergeChanges(fromContextDidSave:)`): inserted, updated and deleted rows are reported.
    @Test func aBackgroundSaveMergedIntoTheContextIsReported() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "b", "c"], into: container)
        let view = container.viewContext
        let (controller, recorder) = try makeTracked(view)
        let ids = try #require(controller.fetchedObjects).map(\.objectID)

        let worker = container.newBackgroundContext()
        let changes = try await worker.perform { () throws -> ContextSaveChanges in
            try captureDidSave(of: worker) {
                worker.delete(try worker.existingObject(with: ids[0]))  // a
                (try worker.existingObject(with: ids[2]) as! Note).body = "memo"  // c, not a sort key
                let bb = Note(context: worker)
                bb.title = "bb"
            }
        }
        #expect(recorder.log.isEmpty, "nothing until the merge")
        view.mergeChanges(fromContextDidSave: changes)
        #expect(recorder.log == ["will", "delete a 0.0→", "insert bb →0.1", "update c 0.2→0.2", "did"])
        #expect(controller.fetchedObjects?.map(\.title) == ["b", "bb", "c"])
        #expect(controller.object(at: path(0, 2)).body == "memo")
    }

    /// Core Data's controller follows a merge of the persistent history
    /// (`mergeChanges(fromContextDidSave: transaction.objectIDNotification())`), which carries
    /// object IDs only, as it follows a merged save.
    @Test func aMergeFromThePersistentHistoryIsReported() async throws {
        let dir = TemporaryDirectory()
        let container = try PersistentHistoryTests.container(dir.file("history.sqlite"))
        try await insertNotes(["a", "b", "c"], into: container)
        let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken()
        let view = container.viewContext
        let (controller, recorder) = try makeTracked(view)
        let ids = try #require(controller.fetchedObjects).map(\.objectID)

        let worker = container.newBackgroundContext()
        try await worker.perform {
            worker.delete(try worker.existingObject(with: ids[0]))  // a
            (try worker.existingObject(with: ids[2]) as! Note).title = "0"  // c, to the front
            insertNote("bb", into: worker)
            try worker.save()
        }
        for transaction in try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions
            ?? []
        {
            view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        #expect(recorder.log == ["will", "delete a 0.0→", "insert bb →0.2", "move 0 0.2→0.0", "did"])
        #expect(controller.fetchedObjects?.map(\.title) == ["0", "b", "bb"])
    }

    /// Core Data: a batch update changes rows in the store only; merged into the context with
    /// `mergeChanges(fromRemoteContextSave:into:)`, it reaches the controller as a save does.
    @Test func aMergedBatchUpdateIsReported() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "b", "c"], into: container)  // stars 0, 1, 2
        let view = container.viewContext
        let (controller, recorder) = try makeTracked(view, sectionedByStars: true)
        let worker = container.newBackgroundContext()
        let updated = try await worker.perform { () throws -> [ManagedObjectID] in
            var request = BatchUpdateRequest<Note>(
                predicate: #Predicate { $0.title == "a" }, propertiesToUpdate: ["stars": .integer(2)])
            request.resultType = .objectIDs
            return try worker.execute(request).objectIDs ?? []
        }
        #expect(recorder.log.isEmpty)
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: ContextSaveChanges(
                insertedObjectIDs: [], updatedObjectIDs: Set(updated), deletedObjectIDs: []), into: [view])
        #expect(recorder.log == ["will", "section delete 0 '0'", "move a 0.0→1.0", "did"])
        #expect(controller.sections?.map { $0.objects.map(\.title) } == [["b"], ["a", "c"]])
    }

    /// Core Data: a context pinned to a query generation fetches that generation (until it
    /// merges, saves or is reset); its controller too, with a batch size as well (where the
    /// controller reads the IDs and sort keys itself).
    @Test(arguments: [0, 2])
    func theControllerOfAPinnedContextReadsItsGeneration(batchSize: Int) async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try await insertNotes(["a", "c"], into: container)
        let view = container.viewContext
        try view.setQueryGenerationFrom(.current)
        var request = FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])
        request.fetchBatchSize = batchSize
        let (controller, recorder) = try makeTracked(view, request: request)

        try await insertNotes(["b"], into: container)  // saved by another context, not merged
        insertNote("d", into: view)
        view.processPendingChanges()
        #expect(recorder.log == ["will", "insert d →0.2", "did"], "b is not in the view's generation")
        #expect(controller.fetchedObjects?.map(\.title) == ["a", "c", "d"])
        #expect(try view.fetch(request).map(\.title) == ["a", "c", "d"])
    }

    /// With `automaticallyMergesChangesFromParent`, a sibling context's save reaches the
    /// controller through the merge the context makes on its own queue; the `changes` stream
    /// delivers it with object IDs.
    @Test func anAutomaticMergeIsDeliveredOnTheChangesStream() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a"], into: container)
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]), managedObjectContext: view)
        try controller.performFetch()
        var iterator = controller.changes.makeAsyncIterator()

        let worker = container.newBackgroundContext()
        let newID = try await worker.perform { () throws -> ManagedObjectID in
            let note = Note(context: worker)
            note.title = "0"
            try worker.save()
            return note.objectID
        }
        let received = await iterator.next()
        var expected = FetchedResultsChangeSet()
        expected.objectChanges = [.insert(newID, at: path(0, 0))]
        #expect(received == expected)
        #expect(controller.fetchedObjects?.map(\.title) == ["0", "a"])
    }

    /// Saving the controller's own context gives its inserted objects permanent IDs: no change
    /// to report, and they are still found by their (new) IDs.
    @Test func savingTheContextChangesNoResult() async throws {
        let (view, controller, recorder) = try await trackedNotes(["a"])
        let b = insertNote("b", into: view)
        view.processPendingChanges()
        #expect(recorder.log == ["will", "insert b →0.1", "did"])
        #expect(b.objectID.isTemporaryID)

        recorder.log = []
        try view.save()
        #expect(!b.objectID.isTemporaryID)
        #expect(recorder.log.isEmpty)
        #expect(controller.indexPath(forObject: b) == path(0, 1))
        #expect(
            controller.fetchedObjects?.map(\.objectID)
                == (try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))).map(\.objectID))
    }

    /// `reset()` invalidates every object of the context: the controller fetches again, reports
    /// the unsaved insertions gone and every other result updated (its object is a new one).
    @Test func resetReloadsTheResults() async throws {
        let (view, controller, recorder) = try await trackedNotes(["a", "c"])
        let oldA = controller.object(at: path(0, 0))
        insertNote("b", into: view)
        view.processPendingChanges()

        recorder.log = []
        view.reset()
        #expect(recorder.log == ["will", "delete b 0.1→", "update a 0.0→0.0", "update c 0.2→0.1", "did"])
        #expect(controller.fetchedObjects?.map(\.title) == ["a", "c"])
        #expect(controller.object(at: path(0, 0)) !== oldA, "a new object for the row")
        #expect(controller.object(at: path(0, 0)).managedObjectContext === view)
    }

    /// Core Data: with no delegate the controller does no tracking ("the controller simply
    /// provides access to the data as it was when the fetch was executed"); a delegate (or a
    /// stream being listened to) turns tracking on.
    @Test func withoutADelegateTheResultsStayAsFetched() async throws {
        let (view, controller) = try await notesByTitle(["a"])
        insertNote("b", into: view)
        view.processPendingChanges()
        #expect(controller.fetchedObjects?.map(\.title) == ["a"])

        let recorder = ChangeRecorder()
        controller.delegate = recorder
        insertNote("c", into: view)
        view.processPendingChanges()
        #expect(
            recorder.log == ["will", "insert b →0.1", "insert c →0.2", "did"], "the changes since the results it has")
    }

    /// A change the delegate makes to the context while it is told of a round (as a table's
    /// data source may) is reported in a round of its own, after the current one: rounds do not
    /// nest, as a table view's batch updates cannot.
    @Test func aChangeMadeDuringAReportIsReportedInTheNextRound() async throws {
        let (view, controller) = try await notesByTitle(["a"])
        let delegate = InsertingDelegate()
        delegate.insertInto = view
        controller.delegate = delegate
        insertNote("b", into: view)
        view.processPendingChanges()
        #expect(delegate.log == ["will", "insert b", "did", "will", "insert z", "did"])
        #expect(controller.fetchedObjects?.map(\.title) == ["a", "b", "z"])
    }

    /// A controller on a child context (whose fetches go through its parent) follows the
    /// child's changes, with a batch size too.
    @Test func aControllerOnAChildContextFollowsItsChanges() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes(["a", "c"], into: container)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = container.viewContext
        try child.performAndWait {
            var request = FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])
            request.fetchBatchSize = 1
            let (controller, recorder) = try makeTracked(child, request: request)
            let b = Note(context: child)
            b.title = "b"
            child.delete(controller.object(at: path(0, 0)))
            child.processPendingChanges()
            #expect(recorder.log == ["will", "delete a 0.0→", "insert b →0.0", "did"])
            #expect(controller.fetchedObjects?.map(\.title) == ["b", "c"])
        }
    }

    /// Core Data lists an unsaved inserted object that changes again among the updated objects
    /// of the next objectsDidChange (and the deletion of one whose insertion it announced among
    /// the deleted objects), and its controller reports a move (a deletion).
    @Test(arguments: [false, true])
    func aChangeToAnUnsavedInsertedObjectIsReported(deleting: Bool) async throws {
        let (view, controller, recorder) = try await trackedNotes(["a"])
        let b = insertNote("b", into: view)
        view.processPendingChanges()
        recorder.log = []
        if deleting { view.delete(b) } else { b.title = "0" }
        view.processPendingChanges()
        #expect(recorder.log == (deleting ? ["will", "delete b 0.1→", "did"] : ["will", "move 0 0.1→0.0", "did"]))
        #expect(controller.fetchedObjects?.map(\.title) == (deleting ? ["a"] : ["0", "a"]))
    }

    /// The delegate is held weakly, as Core Data's.
    @Test func theDelegateIsHeldWeakly() throws {
        let container = try makeContainer(in: nil)
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]),
            managedObjectContext: container.viewContext)
        weak var gone: ChangeRecorder?
        do {
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            gone = recorder
        }
        #expect(gone == nil)
        #expect(controller.delegate == nil)
    }

    // MARK: Batches

    /// Core Data's `fetchBatchSize`: the results' IDs are fetched whole, objects a batch at a
    /// time as they are read. Reading 10,000 results one by one with a batch size of 50, the
    /// controller holds at most two batches, and the objects of batches no longer in use are
    /// freed (by the context's sweep of objects nobody holds).
    @Test func batchedResultsHoldAtMostTwoBatchesOfObjects() async throws {
        let container = try makeContainer(in: nil)
        let titles = (0..<10_000).map { String(format: "n%05d", $0) }
        try await insertNotes(titles, into: container)
        let view = container.viewContext
        var request = FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])
        request.fetchBatchSize = 50
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view)
        try controller.performFetch()
        #expect(controller.heldObjectCount == 0, "IDs and sort keys only")
        #expect(view.registeredObjects.isEmpty)
        #expect(controller.sections?.first?.numberOfObjects == 10_000)

        weak var first: Note?
        var mostHeld = 0
        var mismatches = 0
        for item in 0..<10_000 {
            let note = controller.object(at: path(0, item))
            if item == 0 { first = note }
            if note.title != titles[item] { mismatches += 1 }
            mostHeld = max(mostHeld, controller.heldObjectCount)
        }
        #expect(mismatches == 0)
        #expect(mostHeld == 100)
        #expect(controller.heldObjectCount == 100)
        #expect(first == nil, "the first batch's objects were let go")
        #expect(view.registeredObjects.count < 10_000)
    }

    /// A batched controller reports changes as an unbatched one, and its objects are the
    /// context's (one instance per ID).
    @Test func batchedResultsReportChangesAndShareTheContextsObjects() async throws {
        let container = try makeContainer(in: nil)
        try await insertNotes((0..<20).map { String(format: "n%02d", $0) }, into: container)
        let view = container.viewContext
        var request = FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])
        request.fetchBatchSize = 4
        let (controller, recorder) = try makeTracked(view, request: request)
        let held = controller.object(at: path(0, 13))
        #expect(try view.fetch(FetchRequest<Note>(predicate: #Predicate { $0.title == "n13" }))[0] === held)

        held.title = "n00a"
        insertNote("n19a", into: view)
        view.processPendingChanges()
        #expect(recorder.log == ["will", "insert n19a →0.20", "move n00a 0.13→0.1", "did"])
        #expect(controller.object(at: path(0, 1)) === held)
        #expect(
            controller.fetchedObjects?.map(\.title)
                == (try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))).map(\.title))
    }

    // MARK: Property

    /// Seeded random rounds of insertions, deletions and attribute changes, some in the
    /// controller's context (saved or not), some in a background context saved and merged
    /// (its save notification, or the persistent history's transaction):
    /// after each, (a) the controller's results are a fresh fetch's, sectioned the same way,
    /// and (b) the reported changes, applied to the results before them as a table view applies
    /// a batch update (deletions by old index path, then insertions by new), give the results
    /// after them. Set ECBRATES_SEED to replay a seed; a fixed seed always runs too.
    @Test(arguments: [0, 3])
    func randomChangesAreReportedReplayably(batchSize: Int) async throws {
        var seeds: [UInt64] = [0x5EED_F4C0]
        if let text = ProcessInfo.processInfo.environment["ECBRATES_SEED"], let seed = UInt64(text) {
            seeds.append(seed)
        } else {
            seeds.append(UInt64(Date().timeIntervalSince1970 * 1000))
        }
        for seed in seeds {
            try await runRandomRounds(seed: seed, batchSize: batchSize)
        }
    }

    private func runRandomRounds(seed: UInt64, batchSize: Int) async throws {
        let replay = "replay with ECBRATES_SEED=\(seed) (batch size \(batchSize))"
        var generator = SeededGenerator(seed: seed)
        func random(_ count: Int) -> Int { Int.random(in: 0..<count, using: &generator) }
        let directory = TemporaryDirectory()
        let container = try PersistentHistoryTests.container(directory.file("random.sqlite"))
        var counter = 0
        func nextTitle() -> String {
            counter += 1
            return "t\(random(1000))-\(counter)"
        }
        try await insertNotes((0..<30).map { _ in nextTitle() }, into: container)
        let view = container.viewContext
        var request = FetchRequest<Note>(
            predicate: #Predicate { $0.stars != 2 },
            sortBy: [SortDescriptor(\.stars), SortDescriptor(\.title)])
        request.fetchBatchSize = batchSize
        let (controller, recorder) = try makeTracked(view, request: request, sectionedByStars: true)
        var shown = Shown(controller)

        for round in 0..<40 {
            recorder.rounds = []
            let all = try view.fetch(FetchRequest<Note>())
            var ops: [RandomOp] = []
            let inBackground = random(3) == 0
            // The background context touches only saved rows the view has no unsaved change to;
            // the view touches any, its unsaved insertions too.
            let targets = all.filter { inBackground ? !$0.isInserted && !$0.hasChanges : true }
            for _ in 0...random(5) {
                let target = targets.isEmpty ? nil : targets[random(targets.count)].objectID
                switch (random(5), target) {
                case (0, _), (_, nil): ops.append(.insert(title: nextTitle(), stars: Int16(random(5))))
                case (1, let id?): ops.append(.delete(id))
                case (2, let id?): ops.append(.setStars(id, Int16(random(5))))
                case (3, let id?): ops.append(.setTitle(id, nextTitle()))
                case (_, let id?): ops.append(.setBody(id, "b\(random(100))"))
                }
            }
            if inBackground {
                // An insertion, so that there is something to save (an attribute may be set to
                // the value it has); a new context each time, so that none holds old rows.
                ops.append(.insert(title: nextTitle(), stars: Int16(random(5))))
                let worker = container.newBackgroundContext()
                let ops = ops
                let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken()
                let saved = try await worker.perform { () throws -> ContextSaveChanges in
                    try captureDidSave(of: worker) { for op in ops { op.apply(in: worker) } }
                }
                if random(2) == 0 {
                    view.mergeChanges(fromContextDidSave: saved)
                } else {
                    // The same save, as the persistent history has it (object IDs only).
                    for transaction in try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: token))
                        .transactions ?? []
                    {
                        view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                    }
                }
            } else {
                for op in ops { op.apply(in: view) }
                view.processPendingChanges()
                if random(3) == 0 { try view.save() }
            }

            let fresh = try view.fetch(request)
            let fetched = try #require(controller.fetchedObjects)
            #expect(
                fetched.count == fresh.count && zip(fetched, fresh).allSatisfy { $0 === $1 },
                "round \(round): results \(fetched.map(\.title)) ≠ fresh fetch \(fresh.map(\.title)); \(replay)")
            let freshSections = Dictionary(grouping: fresh, by: \.stars).keys.sorted().map { String($0) }
            #expect(controller.sections?.map(\.name) == freshSections, "round \(round): sections; \(replay)")

            shown.temporaries.merge(recorder.temporaries) { first, _ in first }
            shown.followPermanentIDs()
            for (index, changes) in recorder.rounds.enumerated() {
                let problems = shown.apply(changes)
                #expect(problems.isEmpty, "round \(round), report \(index): \(problems); \(replay)")
            }
            shown.followPermanentIDs()
            let now = Shown(controller)
            #expect(
                shown.sections == now.sections,
                "round \(round): the reports replayed give \(shown.sections), the results are \(now.sections); \(replay)"
            )
            shown = now
        }
    }
}

// MARK: - Helpers

/// An index path (section, item).
private func path(_ section: Int, _ item: Int) -> IndexPath { IndexPath(indexes: [section, item]) }

/// The description of the error `body` throws, or nil.
private func message(of body: @autoclosure () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}

/// A store with notes titled `titles` (stars 0, 1, 2, … in that order), and a controller of
/// them in its view context, made by `makeTracked`.
@MainActor
private func trackedNotes(
    _ titles: [String], sectionedByStars: Bool = false
) async throws
    -> (ManagedObjectContext, FetchedResultsController<Note>, ChangeRecorder)
{
    let container = try makeContainer(in: nil)
    try await insertNotes(titles, into: container)
    let view = container.viewContext
    let (controller, recorder) = try makeTracked(view, sectionedByStars: sectionedByStars)
    return (view, controller, recorder)
}

/// A store with notes titled `titles`, and a controller of them by title in its view context,
/// fetched, without a delegate.
@MainActor
private func notesByTitle(_ titles: [String]) async throws -> (ManagedObjectContext, FetchedResultsController<Note>) {
    let container = try makeContainer(in: nil)
    try await insertNotes(titles, into: container)
    let controller = FetchedResultsController(
        fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]), managedObjectContext: container.viewContext
    )
    try controller.performFetch()
    return (container.viewContext, controller)
}

/// A new note titled `title` in `context`.
@discardableResult
private func insertNote(_ title: String, into context: ManagedObjectContext) -> Note {
    let note = Note(context: context)
    note.title = title
    return note
}

/// A controller of notes by title (or by stars, then title, in sections by stars) in `view`,
/// fetched, with a recorder as its delegate.
@MainActor
private func makeTracked(
    _ view: ManagedObjectContext, request: FetchRequest<Note>? = nil,
    sectionedByStars: Bool = false
) throws -> (FetchedResultsController<Note>, ChangeRecorder) {
    let controller: FetchedResultsController<Note>
    if sectionedByStars {
        let request = request ?? FetchRequest<Note>(sortBy: [SortDescriptor(\.stars), SortDescriptor(\.title)])
        controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: \Note.stars)
    } else {
        let request = request ?? FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view)
    }
    let recorder = ChangeRecorder()
    controller.delegate = recorder
    try controller.performFetch()
    return (controller, recorder)
}

/// Records what a controller tells its delegate: as text ("insert b →0.1"), and as change sets
/// (one per round).
private final class ChangeRecorder: FetchedResultsControllerDelegate {
    var log: [String] = []
    var rounds: [FetchedResultsChangeSet] = []
    /// The titles of the controller's results, as read during the last round.
    var seenDuringChanges: [String] = []
    /// The objects reported with a temporary ID, by that ID (a save changes it).
    var temporaries: [ManagedObjectID: ManagedObject] = [:]
    private var current = FetchedResultsChangeSet()

    func controllerWillChangeContent(_ controller: FetchedResultsController<Note>) {
        log.append("will")
        current = FetchedResultsChangeSet()
    }

    func controller(
        _ controller: FetchedResultsController<Note>, didChange sectionInfo: FetchedResultsSectionInfo<Note>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {
        log.append("section \(type) \(sectionIndex) '\(sectionInfo.name)'")
        current.sectionChanges.append(
            type == .insert
                ? .insert(name: sectionInfo.name, at: sectionIndex)
                : .delete(name: sectionInfo.name, at: sectionIndex))
    }

    func controller(
        _ controller: FetchedResultsController<Note>, didChange note: Note, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        let title = note.isFault ? "?" : note.title
        log.append("\(type) \(title) \(indexPath.map(text) ?? "")→\(newIndexPath.map(text) ?? "")")
        let id = note.objectID
        if id.isTemporaryID { temporaries[id] = note }
        switch type {
        case .insert: current.objectChanges.append(.insert(id, at: newIndexPath!))
        case .delete: current.objectChanges.append(.delete(id, at: indexPath!))
        case .move: current.objectChanges.append(.move(id, from: indexPath!, to: newIndexPath!))
        case .update: current.objectChanges.append(.update(id, at: indexPath!))
        }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<Note>) {
        log.append("did")
        rounds.append(current)
        seenDuringChanges = controller.fetchedObjects?.map(\.title) ?? []
    }

    private func text(_ path: IndexPath) -> String { "\(path[0]).\(path[1])" }
}

/// A delegate that inserts a note (titled "z") into `insertInto` the first time it is told a
/// round is over, and logs the rounds.
private final class InsertingDelegate: FetchedResultsControllerDelegate {
    var log: [String] = []
    var insertInto: ManagedObjectContext?

    func controllerWillChangeContent(_ controller: FetchedResultsController<Note>) { log.append("will") }

    func controller(
        _ controller: FetchedResultsController<Note>, didChange note: Note, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        log.append("\(type) \(note.title)")
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<Note>) {
        log.append("did")
        guard let context = insertInto else { return }
        insertInto = nil
        insertNote("z", into: context)
        context.processPendingChanges()
    }
}

/// What a table view shows of a controller: its sections' names and their objects' IDs, with
/// the objects whose IDs were temporary (to follow them when a save makes them permanent).
@MainActor
private struct Shown {
    var sections: [Section]
    var temporaries: [ManagedObjectID: ManagedObject] = [:]

    struct Section: Equatable, CustomStringConvertible {
        var name: String
        var ids: [ManagedObjectID]
        var description: String { "\(name): \(ids.map { $0.description.split(separator: "/").last ?? "" })" }
    }

    init(_ controller: FetchedResultsController<Note>) {
        sections = (controller.sections ?? []).map { Section(name: $0.name, ids: $0.objects.map(\.objectID)) }
        for object in controller.fetchedObjects ?? [] where object.objectID.isTemporaryID {
            temporaries[object.objectID] = object
        }
    }

    /// Renames the objects whose temporary IDs a save made permanent.
    mutating func followPermanentIDs() {
        for section in sections.indices {
            sections[section].ids = sections[section].ids.map { temporaries[$0]?.objectID ?? $0 }
        }
    }

    /// Applies `changes` as a table view's batch update does; returns what did not fit. IDs are
    /// compared as they are now (a save after the report made some permanent).
    mutating func apply(_ changes: FetchedResultsChangeSet) -> [String] {
        var problems: [String] = []
        followPermanentIDs()
        // Deletions, in the old arrangement: rows (deletions and moves' sources), then sections.
        var removals: [(IndexPath, ManagedObjectID)] = []
        var insertions: [(IndexPath, ManagedObjectID)] = []
        for change in changes.objectChanges {
            switch renamed(change) {
            case .delete(let id, let at): removals.append((at, id))
            case .insert(let id, let at): insertions.append((at, id))
            case .move(let id, let from, let to):
                removals.append((from, id))
                insertions.append((to, id))
            case .update(let id, let at):
                if !holds(id, at: at) { problems.append("update \(at) is not \(id)") }
            }
        }
        for (at, id) in removals.sorted(by: { $0.0 > $1.0 }) {
            guard holds(id, at: at) else {
                problems.append("remove \(at) is not \(id)")
                continue
            }
            sections[at[0]].ids.remove(at: at[1])
        }
        var sectionInsertions: [(Int, String)] = []
        var sectionDeletions: [Int] = []
        for change in changes.sectionChanges {
            switch change {
            case .delete(let name, let index):
                sectionDeletions.append(index)
                if sections.indices.contains(index), sections[index].name != name {
                    problems.append("section \(index) is not '\(name)'")
                }
            case .insert(let name, let index): sectionInsertions.append((index, name))
            }
        }
        for index in sectionDeletions.sorted(by: >) {
            guard sections.indices.contains(index) else {
                problems.append("no section \(index) to delete")
                continue
            }
            if !sections[index].ids.isEmpty { problems.append("section \(index) deleted with rows left") }
            sections.remove(at: index)
        }
        // Insertions, in the new arrangement: sections, then rows.
        for (index, name) in sectionInsertions.sorted(by: { $0.0 < $1.0 }) {
            guard index <= sections.count else {
                problems.append("no place for section \(index)")
                continue
            }
            sections.insert(Section(name: name, ids: []), at: index)
        }
        for (at, id) in insertions.sorted(by: { $0.0 < $1.0 }) {
            guard sections.indices.contains(at[0]), at[1] <= sections[at[0]].ids.count else {
                problems.append("no place for \(at)")
                continue
            }
            sections[at[0]].ids.insert(id, at: at[1])
        }
        return problems
    }

    /// `change`, with the object's ID as it is now.
    private func renamed(_ change: FetchedResultsChangeSet.ObjectChange) -> FetchedResultsChangeSet.ObjectChange {
        guard let id = temporaries[change.objectID]?.objectID else { return change }
        switch change {
        case .insert(_, let at): return .insert(id, at: at)
        case .delete(_, let at): return .delete(id, at: at)
        case .move(_, let from, let to): return .move(id, from: from, to: to)
        case .update(_, let at): return .update(id, at: at)
        }
    }

    private func holds(_ id: ManagedObjectID, at path: IndexPath) -> Bool {
        sections.indices.contains(path[0]) && sections[path[0]].ids.indices.contains(path[1])
            && sections[path[0]].ids[path[1]] == id
    }
}

/// One random change to the notes, made in a given context.
private enum RandomOp: Sendable {
    case insert(title: String, stars: Int16)
    case delete(ManagedObjectID)
    case setStars(ManagedObjectID, Int16)
    case setTitle(ManagedObjectID, String)
    case setBody(ManagedObjectID, String)

    func apply(in context: ManagedObjectContext) {
        /// The note, unless it was deleted (or inserted and deleted) by an earlier change.
        func note(_ id: ManagedObjectID) -> Note? {
            guard let object = try? context.existingObject(with: id), !object.isDeleted else { return nil }
            return object as? Note
        }
        switch self {
        case .insert(let title, let stars):
            let note = Note(context: context)
            note.title = title
            note.stars = stars
        case .delete(let id):
            if let note = note(id) { context.delete(note) }
        case .setStars(let id, let stars):
            note(id)?.stars = stars
        case .setTitle(let id, let title):
            note(id)?.title = title
        case .setBody(let id, let body):
            note(id)?.body = body
        }
    }
}
