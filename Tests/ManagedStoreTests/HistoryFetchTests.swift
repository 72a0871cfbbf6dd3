import Foundation
import ManagedStore
import TestSupport
import Testing

/// `fetchHistory(withFetch:)`, as Core Data's `NSPersistentHistoryChangeRequest` takes a fetch
/// request of `NSPersistentHistoryTransaction.fetchRequest` or `NSPersistentHistoryChange.fetchRequest`
/// with a predicate (developer.apple.com, NSPersistentHistoryChangeRequest/fetchHistory(withFetch:)),
/// here with Foundation predicates on the values.
@Suite struct HistoryFetchTests {
    /// Property: for seeded sequences of saves by random authors (inserts, updates, deletes),
    /// the transactions a predicate on the author selects, and the changes a predicate on the
    /// change type selects, are those the test finds itself in the whole history.
    @Test func aFetchRequestSelectsTheTransactionsAndChangesItsPredicateDoes() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<5 {
            let dir = TemporaryDirectory()
            let container = try PersistentHistoryTests.container(dir.file("h.sqlite"))
            let context = container.newBackgroundContext()
            try context.performAndWait {
                var titles: [String] = []
                for step in 0..<25 {
                    context.transactionAuthor = ["import", "front-end", "sync"].randomElement(using: &generator)
                    for _ in 0..<Int.random(in: 1...3, using: &generator) {
                        switch Int.random(in: 0..<3, using: &generator) {
                        case 0 where !titles.isEmpty:
                            let title = titles.remove(at: Int.random(in: 0..<titles.count, using: &generator))
                            let note = try context.fetch(
                                FetchRequest<Note>(predicate: #Predicate { $0.title == title }))[0]
                            context.delete(note)
                        case 1 where !titles.isEmpty:
                            let title = titles.randomElement(using: &generator)!
                            let note = try context.fetch(
                                FetchRequest<Note>(predicate: #Predicate { $0.title == title }))[0]
                            note.stars += 1
                        default:
                            let note = Note(context: context)
                            note.title = "n\(step)-\(titles.count)-\(Int.random(in: 0..<1000, using: &generator))"
                            titles.append(note.title)
                        }
                    }
                    try context.save()
                }
                let all =
                    try context.execute(
                        PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
                    ).transactions ?? []

                var byAuthor = PersistentHistoryTransaction.fetchRequest!
                byAuthor.predicate = #Predicate { $0.author == "front-end" }
                let fetched = try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: byAuthor))
                #expect(
                    fetched.transactions?.map(\.transactionNumber)
                        == all.filter { $0.author == "front-end" }.map(\.transactionNumber),
                    "ECBRATES_SEED=\(seed): round \(round)")

                let deletion = PersistentHistoryChange.ChangeType.delete
                var deletes = PersistentHistoryChange.fetchRequest!
                deletes.predicate = #Predicate { $0.changeType == deletion }
                let changes = try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: deletes))
                let expected = all.compactMap { transaction -> [Int64]? in
                    let ids = (transaction.changes ?? []).filter { $0.changeType == .delete }.map(\.changeID)
                    return ids.isEmpty ? nil : ids
                }
                #expect(
                    changes.transactions?.map { ($0.changes ?? []).map(\.changeID) } == expected,
                    "ECBRATES_SEED=\(seed): round \(round)")

                byAuthor.fetchLimit = 2
                let limited = try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: byAuthor))
                #expect(limited.transactions?.count == min(2, all.filter { $0.author == "front-end" }.count))
            }
        }
    }

    /// Core Data's `preservesValueInHistoryOnDeletion`: "whether to preserve the value in
    /// persistent history when the owning object is deleted" (developer.apple.com,
    /// NSPropertyDescription): the deletion's tombstone keeps it, beside the uniqueness
    /// constraint's values, for a context's deletion and a batch delete alike.
    @Test(arguments: [false, true]) func aPreservedAttributeIsInTheDeletionsTombstone(batch: Bool) throws {
        let note = EntityDescription(
            name: "Note", managedObjectClass: Note.self,
            attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(
                    name: "body", type: .string, isOptional: true, preservesValueInHistoryOnDeletion: true),
                AttributeDescription(name: "stars", type: .integer16, defaultValue: .integer(0)),
                AttributeDescription(name: "created", type: .date, defaultValue: .date(Date(timeIntervalSince1970: 0))),
                AttributeDescription(name: "price", type: .decimal, isOptional: true),
            ],
            uniquenessConstraints: [["title"]])
        let model = ManagedObjectModel(entities: [note, TestModel.counter])
        #expect(model.entityVersionHashesByName == TestModel.model.entityVersionHashesByName, "not part of the schema")
        let dir = TemporaryDirectory()
        let container = try PersistentHistoryTests.container(dir.file("h.sqlite"), model: model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let created = Note(context: context)
            created.title = "a"
            created.body = "keep me"
            created.stars = 3
            try context.save()
            if batch {
                try context.execute(BatchDeleteRequest(FetchRequest<Note>()))
            } else {
                context.delete(created)
                try context.save()
            }
            let changes =
                try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
                .changes ?? []
            let deletion = changes.first { $0.changeType == .delete }
            #expect(deletion?.tombstone == ["title": .string("a"), "body": .string("keep me")])
        }
    }

    /// History written before transactions kept their bundle ID reads with an empty one (a
    /// reader that may not write changes nothing), and the first writer that tracks history
    /// adds the column; its transactions then carry the program's name.
    @Test func historyFromBeforeTheBundleIDReadsOnAndGainsIt() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("h.sqlite")
        try insertNotesSync(["a"], into: try PersistentHistoryTests.container(url))
        let drop = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [url.path, "ALTER TABLE Z_HISTORYTRANSACTION DROP COLUMN ZBUNDLEID"],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(drop.status == 0, "\(drop.err)")
        let reader = try PersistentHistoryTests.container(url) {
            $0.persistentHistoryTracking = true
            $0.isReadOnly = true
        }
        let old = try reader.viewContext.performAndWait {
            try reader.viewContext.execute(
                PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            ).transactions ?? []
        }
        #expect(old.map(\.bundleID) == [""])
        let writer = try PersistentHistoryTests.container(url)
        try insertNotesSync(["b"], into: writer)
        let all = try writer.viewContext.performAndWait {
            try writer.viewContext.execute(
                PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            ).transactions ?? []
        }
        #expect(all.map(\.bundleID) == ["", ProcessInfo.processInfo.processName])
        #expect(!ProcessInfo.processInfo.processName.isEmpty)
    }
}
