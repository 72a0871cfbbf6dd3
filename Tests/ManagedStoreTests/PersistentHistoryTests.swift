import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// The entity the helper process writes (`Tests/MigrationHelper`, its version-1 model).
final class HelperEntry: ManagedObject {
    @Attribute var name: String
    @Attribute var amount: Int64
}

/// Persistent history, as Core Data's `NSPersistentHistoryTrackingKey`,
/// `NSPersistentHistoryChangeRequest` and `NSPersistentHistoryTransaction` document it.
@Suite struct PersistentHistoryTests {
    static let helperModel = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Entry", managedObjectClass: HelperEntry.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "amount", type: .integer64),
            ], uniquenessConstraints: [["name"]])
    ])

    static func container(
        _ url: URL, model: ManagedObjectModel = TestModel.model,
        configure: (inout PersistentStoreDescription) -> Void = { $0.persistentHistoryTracking = true }
    ) throws -> PersistentContainer {
        let container = PersistentContainer(name: "History", managedObjectModel: model)
        var description = PersistentStoreDescription(url: url)
        configure(&description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    static func history(
        _ context: ManagedObjectContext, after token: PersistentHistoryToken? = nil
    ) throws -> [PersistentHistoryTransaction] {
        try context.performAndWait {
            try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions ?? []
        }
    }

    /// Core Data: with history tracking on, each save records a transaction with its timestamp,
    /// the context's `transactionAuthor` and `name`, and its changes: inserts, updates with
    /// `updatedProperties`, deletes with a tombstone.
    @Test func eachSaveRecordsATransactionWithItsAuthorNameAndChanges() throws {
        let dir = TemporaryDirectory()
        let container = try Self.container(dir.file("h.sqlite"))
        let context = container.newBackgroundContext()
        context.transactionAuthor = "importer"
        context.name = "worker 1"
        let before = Date()
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            let notes = ["a", "b", "c"].map { title in
                let note = Note(context: context)
                note.title = title
                return note
            }
            try context.save()
            notes[0].stars = 5
            notes[0].body = "text"
            try context.save()
            context.delete(notes[1])
            try context.save()
            return notes.map(\.objectID)
        }
        let transactions = try Self.history(container.viewContext)
        #expect(transactions.count == 3)
        #expect(transactions.map(\.author) == ["importer", "importer", "importer"])
        #expect(transactions.map(\.contextName) == ["worker 1", "worker 1", "worker 1"])
        #expect(transactions.allSatisfy { $0.timestamp >= before.addingTimeInterval(-1) && $0.timestamp <= Date() })
        #expect(transactions.map(\.processID) == Array(repeating: String(getpid()), count: 3))
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3])

        let inserts = transactions[0].changes ?? []
        #expect(inserts.map(\.changeType) == [.insert, .insert, .insert])
        #expect(inserts.map(\.changedObjectID) == ids)
        #expect(inserts.allSatisfy { $0.updatedProperties == nil && $0.tombstone == nil })
        let update = try #require(transactions[1].changes?.first)
        #expect(transactions[1].changes?.count == 1)
        #expect(update.changeType == .update && update.changedObjectID == ids[0])
        #expect(update.updatedProperties == ["stars", "body"])
        let delete = try #require(transactions[2].changes?.first)
        #expect(delete.changeType == .delete && delete.changedObjectID == ids[1])
        #expect(delete.tombstone == ["title": .string("b")], "the uniqueness constraint's values outlive the row")
        let changeIDs = transactions.flatMap { $0.changes ?? [] }.map(\.changeID)
        #expect(changeIDs == changeIDs.sorted() && Set(changeIDs).count == 5, "change IDs are unique and increasing")
    }

    /// Core Data: `fetchHistory(after: token)` returns only the transactions after the token's,
    /// and tokens can be archived (here: Codable) and compared.
    @Test func historyAfterATokenKeptOnDiskHoldsOnlyLaterTransactions() throws {
        let dir = TemporaryDirectory()
        let container = try Self.container(dir.file("h.sqlite"))
        try insertNotesSync(["a"], into: container)
        let first = try #require(try Self.history(container.viewContext).last?.token)
        let archived = try JSONEncoder().encode(first)
        try insertNotesSync(["b"], into: container)
        try insertNotesSync(["c"], into: container)
        let token = try JSONDecoder().decode(PersistentHistoryToken.self, from: archived)
        #expect(token == first)
        let later = try Self.history(container.viewContext, after: token)
        #expect(later.map(\.transactionNumber) == [2, 3])
        #expect(later.allSatisfy { $0.token > token })
        #expect(try container.persistentStoreCoordinator.currentPersistentHistoryToken() == later.last?.token)

        let onlyTransactions = try container.viewContext.performAndWait {
            var request = PersistentHistoryChangeRequest.fetchHistory(after: token)
            request.resultType = .transactionsOnly
            return try container.viewContext.execute(request)
        }
        #expect(onlyTransactions.transactions?.map { $0.changes == nil } == [true, true])
        let count = try container.viewContext.performAndWait {
            var request = PersistentHistoryChangeRequest.fetchHistory(after: token)
            request.resultType = .count
            return try container.viewContext.execute(request).count
        }
        #expect(count == 2)
        let byDate = try container.viewContext.performAndWait {
            try container.viewContext.execute(
                PersistentHistoryChangeRequest.fetchHistory(after: Date().addingTimeInterval(-3600))
            ).transactions
        }
        #expect(byDate?.count == 3)
        #expect(
            try container.viewContext.performAndWait {
                try container.viewContext.execute(
                    PersistentHistoryChangeRequest.fetchHistory(after: Date().addingTimeInterval(3600))
                ).transactions
            }?.isEmpty == true)
    }

    /// Core Data: `deleteHistory(before:)` purges history through the token; fetching after a
    /// token older than what is kept fails (`NSPersistentHistoryTokenExpiredError`) rather than
    /// silently skipping what was purged.
    @Test func purgedHistoryMakesOlderTokensExpireWithAClearError() throws {
        let dir = TemporaryDirectory()
        let container = try Self.container(dir.file("h.sqlite"))
        for title in ["a", "b", "c", "d"] { try insertNotesSync([title], into: container) }
        let all = try Self.history(container.viewContext)
        let view = container.viewContext
        let purge = try view.performAndWait {
            var request = PersistentHistoryChangeRequest.deleteHistory(before: all[1].token)
            request.resultType = .count
            return try view.execute(request).count
        }
        #expect(purge == 2)
        #expect(try Self.history(view).map(\.transactionNumber) == [3, 4])
        #expect(
            try Self.history(view, after: all[1].token).map(\.transactionNumber) == [3, 4],
            "the purge's own token is still good")
        #expect {
            try Self.history(view, after: all[0].token)
        } throws: { error in
            "\(error)"
                == "persistent history after transaction 1 was purged (the oldest kept is 3): what changed since is no longer known; start again from the store's contents"
        }
        // Numbers are never reused after a purge.
        _ = try view.performAndWait {
            try view.execute(PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryToken?))
        }
        try insertNotesSync(["e"], into: container)
        #expect(try Self.history(view, after: all[3].token).map(\.transactionNumber) == [5])
    }

    /// Found in review: a deletion of a row another save deleted first deletes nothing, and
    /// records nothing: the history has one deletion of the row, not two.
    @Test func aRowDeletedTwiceIsDeletedOnceInTheHistory() throws {
        let dir = TemporaryDirectory()
        let container = try Self.container(dir.file("h.sqlite"))
        try insertNotesSync(["a"], into: container)
        let first = container.newBackgroundContext(), second = container.newBackgroundContext()
        let noteA = try first.performAndWait { try first.fetch(FetchRequest<Note>())[0] }
        let noteB = try second.performAndWait { try second.fetch(FetchRequest<Note>())[0] }
        try first.performAndWait {
            first.delete(noteA); try first.save()
        }
        try second.performAndWait {
            second.delete(noteB); try second.save()
        }
        let deletions = try Self.history(container.viewContext).flatMap { $0.changes ?? [] }.filter {
            $0.changeType == .delete
        }
        #expect(deletions.count == 1)
    }

    /// The retention option: a save purges the transactions older than the days kept.
    @Test func aRetentionOfZeroDaysKeepsOnlyTheLatestTransaction() throws {
        let dir = TemporaryDirectory()
        let container = try Self.container(dir.file("h.sqlite")) {
            $0.persistentHistoryTracking = true
            $0.persistentHistoryRetentionDays = 0
        }
        for title in ["a", "b", "c"] { try insertNotesSync([title], into: container) }
        #expect(
            try Self.history(container.viewContext).map(\.transactionNumber) == [3],
            "the first two were purged by the later saves")
    }

    /// Core Data: a store that has recorded history, opened without tracking it, is read-only
    /// ("Forcing into Read Only mode store"), so that no change goes unrecorded.
    @Test func aStoreWithHistoryOpenedWithoutTrackingRefusesSaves() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("h.sqlite")
        try insertNotesSync(["a"], into: try Self.container(url))
        let untracked = try Self.container(url) { _ in }
        #expect(try storedCount(untracked) == 1, "it still reads")
        #expect(untracked.persistentStoreCoordinator.persistentStores[0].isReadOnly, "and says it is read-only")
        #expect(!(try Self.container(url)).persistentStoreCoordinator.persistentStores[0].isReadOnly)
        #expect {
            try insertNotesSync(["b"], into: untracked)
        } throws: { error in
            "\(error)"
                == "the store at \(url.path) records persistent history, but was opened without tracking it, so it is read-only: open it with persistentHistoryTracking on"
        }
    }

    /// Core Data: a history transaction's `objectIDNotification()` can be merged like a save:
    /// updated objects the context holds take the new values, deleted ones leave it, inserted
    /// ones come in, and objectsDidChange says so.
    @Test func aTransactionFromAnotherCoordinatorMergesLikeASave() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("h.sqlite")
        let front = try Self.container(url)
        try insertNotesSync(["keep", "gone"], into: front)
        let token = try front.persistentStoreCoordinator.currentPersistentHistoryToken()
        let view = container(front).viewContext
        let held = try view.performAndWait { try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])) }
        #expect(held.map(\.title) == ["gone", "keep"])

        // Another coordinator (as another process would) changes the store.
        let other = try Self.container(url)
        let worker = other.newBackgroundContext()
        try worker.performAndWait {
            let notes = try worker.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
            notes[1].stars = 9
            worker.delete(notes[0])
            Note(context: worker).title = "new"
            try worker.save()
        }
        let changed = Mutex<[String: Int]>([:])
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: view, queue: nil
        ) { note in
            let counts = ["inserted", "updated", "deleted"].map { (key: String) in
                (key, (note.userInfo?[key] as? Set<ManagedObject>)?.count ?? 0)
            }
            changed.withLock { $0 = Dictionary(uniqueKeysWithValues: counts) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try view.performAndWait {
            for transaction in try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions
                ?? []
            {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
        }
        #expect(held[1].stars == 9, "the held object took the other coordinator's value")
        #expect(held[0].isDeleted && held[0].managedObjectContext == nil)
        #expect(changed.withLock { $0 } == ["inserted": 1, "updated": 1, "deleted": 1])
        #expect(
            try view.performAndWait {
                try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title)
            } == ["keep", "new"])
    }

    // MARK: Remote change notifications

    static var helper: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "managedstore-migration-helper")
    }

    /// Core Data: with `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, the coordinator
    /// posts `NSPersistentStoreRemoteChange`, with the history token, when another process
    /// commits; the history after the last token holds that process's transactions, which merge
    /// into a context. Promptly: here within a second of the other process's exit.
    @Test func anotherProcesssCommitsArePostedPromptlyWithTheirHistoryToken() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("shared.sqlite")
        let made = try SpawnedProcess.run(Self.helper, ["history-insert", url.path, "first-", "2"])
        #expect(made.status == 0, "\(made.err)")
        let front = try Self.container(url, model: Self.helperModel) {
            $0.persistentHistoryTracking = true
            $0.remoteChangeNotificationsEnabled = true
        }
        let start = try front.persistentStoreCoordinator.currentPersistentHistoryToken()
        let seen = Mutex<[(PersistentStoreRemoteChange, ContinuousClock.Instant)]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.persistentStoreRemoteChangeNotification,
            object: front.persistentStoreCoordinator, queue: nil
        ) { note in
            if let change = PersistentStoreRemoteChange(note) { seen.withLock { $0.append((change, .now)) } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(seen.withLock { $0.isEmpty }, "nothing changed: nothing posted")

        let writer = try SpawnedProcess.Running(Self.helper, ["history-insert", url.path, "second-", "3"])
        let wrote = try writer.wait()
        #expect(wrote.status == 0, "\(wrote.err)")
        let ended = ContinuousClock.now
        Waiting.until(timeout: .seconds(5)) { !seen.withLock { $0.isEmpty } }
        let (change, when) = try #require(seen.withLock { $0.first })
        #expect(when - ended < .seconds(1), "posted \(when - ended) after the other process ended")
        #expect(change.storeURL.path == url.path)
        #expect(change.historyToken.transactionNumber == start.transactionNumber + 1)

        let view = front.viewContext
        try view.performAndWait {
            let transactions =
                try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: start)).transactions ?? []
            #expect(transactions.map(\.author) == ["helper"])
            #expect(transactions.first?.processID == String(writer.pid))
            // Core Data's bundleID: a program without a bundle is named by its executable.
            #expect(transactions.first?.bundleID == Self.helper.lastPathComponent)
            #expect(transactions.first?.changes?.count == 3)
            for transaction in transactions {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            #expect(try view.count(for: FetchRequest<HelperEntry>()) == 5)
        }
    }

    /// Another coordinator in this process counts as remote too; so do this coordinator's own
    /// saves (Core Data posts for those as well).
    @Test func commitsThroughAnyCoordinatorArePosted() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("h.sqlite")
        let front = try Self.container(url) {
            $0.persistentHistoryTracking = true
            $0.remoteChangeNotificationsEnabled = true
            $0.remoteChangePollInterval = 0.02
        }
        let tokens = Mutex<[Int64]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.persistentStoreRemoteChangeNotification,
            object: front.persistentStoreCoordinator, queue: nil
        ) { note in
            if let change = PersistentStoreRemoteChange(note) {
                tokens.withLock { $0.append(change.historyToken.transactionNumber) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let other = try Self.container(url)
        try insertNotesSync(["a"], into: other)
        try wait { tokens.withLock { $0.contains(1) } }
        try insertNotesSync(["b"], into: front)
        try wait { tokens.withLock { $0.contains(2) } }
        #expect(tokens.withLock { $0 } == [1, 2])
    }

    // MARK: Helpers

    func wait(_ condition: () -> Bool) throws {
        guard Waiting.until(timeout: .seconds(5), condition) else { throw ManagedStoreError.noPersistentStore }
    }

    func container(_ container: PersistentContainer) -> PersistentContainer { container }

    func storedCount(_ container: PersistentContainer) throws -> Int {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<Note>()) }
    }
}

/// Inserts notes titled `titles` (with `stars` their index) through a new background context,
/// waiting for the save.
func insertNotesSync(_ titles: [String], into container: PersistentContainer) throws {
    let context = container.newBackgroundContext()
    try context.performAndWait {
        for (index, title) in titles.enumerated() {
            let note = Note(context: context)
            note.title = title
            note.stars = Int16(index)
        }
        try context.save()
    }
}
