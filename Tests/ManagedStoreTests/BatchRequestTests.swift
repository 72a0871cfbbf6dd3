import Foundation
import ManagedStore
import TestSupport
import Testing

/// Batch insert, update and delete, as Core Data documents `NSBatchInsertRequest`,
/// `NSBatchUpdateRequest` and `NSBatchDeleteRequest`: run against the store without loading
/// objects, with result types, and brought into contexts by `mergeChanges(fromRemoteContextSave:into:)`.
@Suite struct BatchRequestTests {
    static func stored(_ container: PersistentContainer) throws -> [String: Int16] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Note>()).map { ($0.title, $0.stars) })
        }
    }

    /// Core Data: a batch insert writes the rows straight to the store, with result types
    /// status, count and object IDs; the context that ran it registers no objects.
    @Test func aBatchInsertStoresEveryRowWithoutMakingObjects() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let context = container.newBackgroundContext()
        let result = try context.performAndWait { () throws -> BatchResult in
            var request = BatchInsertRequest<Note>(objects: [
                ["title": .string("a"), "stars": .integer(3)],
                ["title": .string("b"), "body": .string("text")],
            ])
            request.resultType = .objectIDs
            let result = try context.execute(request)
            #expect(context.registeredObjects.isEmpty && !context.hasChanges)
            return result
        }
        #expect(result.objectIDs?.count == 2 && result.objectIDs?.allSatisfy { !$0.isTemporaryID } == true)
        #expect(try Self.stored(container) == ["a": 3, "b": 0], "a value not given takes the attribute's default")

        let counted = try context.performAndWait {
            var request = BatchInsertRequest<Note>(objects: [["title": .string("c")]])
            request.resultType = .count
            return try context.execute(request).count
        }
        #expect(counted == 1)
    }

    /// Core Data's handler forms: a dictionary or an object filled per row until the handler
    /// says it is done (that call's row is not inserted).
    @Test func handlersFillOneRowAtATimeUntilTheySayDone() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var next = 0
            try context.execute(
                BatchInsertRequest<Note>(dictionaryHandler: { row in
                    guard next < 3 else { return true }
                    row["title"] = .string("d\(next)")
                    next += 1
                    return false
                }))
            var count = 0
            try context.execute(
                BatchInsertRequest<Note>(managedObjectHandler: { note in
                    guard count < 2 else { return true }
                    note.title = "o\(count)"
                    note.stars = Int16(10 + count)
                    count += 1
                    return false
                }))
        }
        #expect(try Self.stored(container) == ["d0": 0, "d1": 0, "d2": 0, "o0": 10, "o1": 11])
    }

    /// Core Data: with a uniqueness constraint, a batch insert updates the stored row that
    /// holds the constrained values (an upsert) and returns that row's ID.
    @Test func aBatchInsertUpsertsRowsThatMeetAUniquenessConstraint() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a", "b"], into: container)
        let context = container.newBackgroundContext()
        let existing = try context.performAndWait {
            try context.fetch(FetchRequest<Note>(predicate: #Predicate { $0.title == "b" }))[0].objectID
        }
        let ids = try context.performAndWait {
            var request = BatchInsertRequest<Note>(objects: [
                ["title": .string("b"), "stars": .integer(7)], ["title": .string("c")],
            ])
            request.resultType = .objectIDs
            return try context.execute(request).objectIDs ?? []
        }
        #expect(ids.first == existing)
        #expect(try Self.stored(container) == ["a": 0, "b": 7, "c": 0])
    }

    /// Rows of one batch that meet the same constraint end as one row (the last values win),
    /// and each row's ID in the result is that row's: [x, y, x] gives [X, Y, X].
    @Test func aBatchThatRepeatsAConstrainedValueGivesEachRowItsObjectID() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait {
            var request = BatchInsertRequest<Note>(objects: [
                ["title": .string("x"), "stars": .integer(1)], ["title": .string("y")],
                ["title": .string("x"), "stars": .integer(3)],
            ])
            request.resultType = .objectIDs
            return try context.execute(request).objectIDs ?? []
        }
        #expect(ids.count == 3 && ids[0] == ids[2] && ids[0] != ids[1])
        #expect(
            try context.performAndWait { try ids.map { (try context.existingObject(with: $0) as! Note).title } } == [
                "x", "y", "x",
            ])
        #expect(try Self.stored(container) == ["x": 3, "y": 0])
    }

    /// Bad rows fail the whole request, naming what is wrong; nothing is stored.
    @Test func aBadRowFailsTheWholeBatchInsertByName() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let context = container.newBackgroundContext()
        #expect {
            try context.performAndWait {
                try context.execute(
                    BatchInsertRequest<Note>(objects: [["title": .string("a")], ["titel": .string("b")]]))
            }
        } throws: { "\($0)" == "batch request on Note: it has no attribute or to-one relationship 'titel' (row 2)" }
        #expect {
            try context.performAndWait {
                try context.execute(BatchInsertRequest<Note>(objects: [["title": .integer(1)]]))
            }
        } throws: { "\($0)" == "batch request on Note: title is string, not 1 (row 1)" }
        #expect {
            try context.performAndWait {
                try context.execute(
                    BatchInsertRequest<Note>(objects: [["title": .string("a")], ["stars": .integer(2)]]))
            }
        } throws: {
            "\($0)".hasPrefix("the save failed validation: Note.title of ")
                && "\($0)".hasSuffix(": is nil, but the attribute is not optional (row 2 of the batch insert)")
        }
        #expect(try Self.stored(container).isEmpty)
    }

    /// Core Data: a batch update changes the rows in the store; a context holding one of them
    /// sees the new values once it merges the result's IDs (`mergeChanges(fromRemoteContextSave:into:)`),
    /// and a context that saves a stale copy meets an optimistic locking conflict.
    @Test func aBatchUpdateReachesContextsThroughARemoteMerge() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a", "b", "c"], into: container)
        let view = container.newBackgroundContext()
        let held = try view.performAndWait { try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])) }
        let stale = container.newBackgroundContext()
        let staleNote = try stale.performAndWait {
            try stale.fetch(FetchRequest<Note>(predicate: #Predicate { $0.title == "a" }))[0]
        }

        let worker = container.newBackgroundContext()
        let ids = try worker.performAndWait {
            var request = BatchUpdateRequest<Note>(
                predicate: #Predicate { $0.title != "c" },
                propertiesToUpdate: ["stars": .integer(5), "body": .string("x")])
            request.resultType = .objectIDs
            return try worker.execute(request).objectIDs ?? []
        }
        #expect(Set(ids) == Set([held[0].objectID, held[1].objectID]))
        #expect(
            view.performAndWait { held.map(\.stars) } == [0, 1, 2], "not merged yet: the context keeps what it read")
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: ContextSaveChanges(
                insertedObjectIDs: [], updatedObjectIDs: Set(ids), deletedObjectIDs: []), into: [view])
        #expect(view.performAndWait { held.map(\.stars) } == [5, 5, 2])
        #expect(view.performAndWait { held.map(\.body) } == ["x", "x", nil])

        #expect {
            try stale.performAndWait {
                staleNote.stars = 1
                try stale.save()
            }
        } throws: { "\($0)".contains("was changed in the store since it was read") }
    }

    /// A batch update that would give two rows the same constrained values fails whole.
    @Test func aBatchUpdateThatBreaksAUniquenessConstraintChangesNothing() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a", "b"], into: container)
        let context = container.newBackgroundContext()
        #expect {
            try context.performAndWait {
                try context.execute(
                    BatchUpdateRequest<Note>(propertiesToUpdate: ["title": .string("same"), "stars": .integer(2)]))
            }
        } throws: {
            "\($0)"
                == "the save failed with 1 conflict: Note unique on (title):  conflict with each other (title = \"same\")"
        }
        #expect(try Self.stored(container) == ["a": 0, "b": 1])
    }

    /// Core Data: a batch delete removes the rows; merged as deletions, the objects a context
    /// holds leave it.
    @Test func aBatchDeleteRemovesRowsAndMergedDeletionsEvictObjects() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        try insertNotesSync(["a", "b", "c", "d"], into: container)
        let view = container.newBackgroundContext()
        let held = try view.performAndWait { try view.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])) }
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait {
            var fetch = FetchRequest<Note>(predicate: #Predicate { $0.stars >= 1 }, sortBy: [SortDescriptor(\.title)])
            fetch.fetchLimit = 2
            var request = BatchDeleteRequest(fetch)
            request.resultType = .objectIDs
            return try context.execute(request).objectIDs ?? []
        }
        #expect(ids == [held[1].objectID, held[2].objectID], "its fetch request's predicate, order and limit")
        #expect(try Self.stored(container) == ["a": 0, "d": 3])
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: ContextSaveChanges(
                insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: Set(ids)), into: [view])
        view.performAndWait {
            #expect(held.map(\.isDeleted) == [false, true, true, false])
            #expect(held[1].managedObjectContext == nil)
        }
    }

    /// Delete rules in a batch delete: nullify clears the other side's key; deny and cascade,
    /// which need objects, refuse the whole request by name.
    @Test func aBatchDeleteNullifiesAndRefusesRulesItCannotApply() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Library", model: LibraryModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = Author(context: context)
            author.name = "Tolstoy"
            let book = Book(context: context)
            book.title = "War and Peace"
            book.author = author
            let portrait = Portrait(context: context)
            portrait.caption = "oil"
            author.portrait = portrait
            try context.save()
            context.reset()
        }
        #expect {
            try context.performAndWait { try context.execute(BatchDeleteRequest(FetchRequest<Author>())) }
        } throws: {
            "\($0)".hasPrefix(
                "batch request on Author: 1 Book object is related to the objects to delete by 'books', whose delete rule (deny)"
            )
        }
        try context.performAndWait {
            try context.execute(BatchDeleteRequest(FetchRequest<Portrait>()))
            let author = try context.fetch(FetchRequest<Author>())[0]
            #expect(author.portrait == nil, "the sitter's side was nullified")
            #expect(author.books.count == 1)
        }
    }

    /// Core Data's `NSBatchDeleteRequest(objectIDs:)`: "Creates a request that deletes the
    /// managed objects with the specified identifiers"; "The identifiers your provide must be
    /// from managed objects of the same entity type; mixing entity types results in an error when
    /// you execute the request" (developer.apple.com, NSBatchDeleteRequest/init(objectIDs:)).
    /// Property, on seeded subsets: exactly the rows of the IDs given go, and no other.
    @Test func aBatchDeleteByObjectIDsDeletesExactlyThoseObjects() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<15 {
            let dir = TemporaryDirectory()
            let container = try makeContainer(in: dir)
            let titles = (0..<Int.random(in: 1...40, using: &generator)).map { "n\($0)" }
            try insertNotesSync(titles, into: container)
            let context = container.newBackgroundContext()
            let (chosen, ids) = try context.performAndWait { () throws -> (Set<String>, [ManagedObjectID]) in
                let all = try context.fetch(FetchRequest<Note>())
                let chosen = all.filter { _ in Bool.random(using: &generator) }
                var request = BatchDeleteRequest(objectIDs: chosen.map(\.objectID))
                request.resultType = .objectIDs
                return (Set(chosen.map(\.title)), try context.execute(request).objectIDs ?? [])
            }
            #expect(ids.count == chosen.count, "ECBRATES_SEED=\(seed): round \(round)")
            #expect(
                Set(try Self.stored(container).keys) == Set(titles).subtracting(chosen),
                "ECBRATES_SEED=\(seed): round \(round)")
        }
    }

    /// The IDs of two entities, a temporary ID, or none: refused (nothing deleted), or nothing.
    @Test func aBatchDeleteByObjectIDsRefusesTwoEntitiesAndUnsavedObjects() throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir, name: "Library", model: LibraryModel.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = Author(context: context)
            author.name = "Austen"
            let portrait = Portrait(context: context)
            portrait.caption = "pencil"
            try context.save()
            #expect {
                try context.execute(BatchDeleteRequest(objectIDs: [author.objectID, portrait.objectID]))
            } throws: {
                "\($0)".contains("its object IDs are of two entities, Author and Portrait")
            }
            let unsaved = Author(context: context)
            #expect {
                try context.execute(BatchDeleteRequest(objectIDs: [author.objectID, unsaved.objectID]))
            } throws: {
                "\($0)".contains("is a temporary ID: its object was never saved")
            }
            context.delete(unsaved)
            var none = BatchDeleteRequest(objectIDs: [])
            none.resultType = .count
            #expect(try context.execute(none).count == 0)
            context.reset()
            #expect(try context.count(for: FetchRequest<Author>()) == 1)
            #expect(try context.count(for: FetchRequest<Portrait>()) == 1)
        }
    }

    /// Batch requests are recorded in the persistent history like saves (Core Data records
    /// them too), so that other processes learn of them.
    @Test func batchRequestsAreRecordedInThePersistentHistory() throws {
        let dir = TemporaryDirectory()
        let container = try PersistentHistoryTests.container(dir.file("h.sqlite"))
        let context = container.newBackgroundContext()
        context.transactionAuthor = "batch"
        let transactions = try context.performAndWait { () throws -> [PersistentHistoryTransaction] in
            try context.execute(BatchInsertRequest<Note>(objects: [["title": .string("a")], ["title": .string("b")]]))
            try context.execute(
                BatchUpdateRequest<Note>(
                    predicate: #Predicate { $0.title == "a" }, propertiesToUpdate: ["stars": .integer(4)]))
            try context.execute(BatchDeleteRequest(FetchRequest<Note>(predicate: #Predicate { $0.title == "b" })))
            return try context.execute(
                PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            ).transactions ?? []
        }
        #expect(transactions.map(\.author) == ["batch", "batch", "batch"])
        #expect(
            transactions.map { $0.changes?.map(\.changeType) ?? [] } == [[.insert, .insert], [.update], [.delete]])
        #expect(transactions[1].changes?.first?.updatedProperties == ["stars"])
        #expect(transactions[2].changes?.first?.tombstone == ["title": .string("b")])
    }

    /// Property: any seeded sequence of batch inserts (with upserts), updates and deletes
    /// leaves the store equal to a plain dictionary model of the same operations.
    @Test func seededBatchSequencesMatchADictionaryModel() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<20 {
            let dir = TemporaryDirectory()
            let container = try makeContainer(in: dir)
            let context = container.newBackgroundContext()
            var model: [String: Int16] = [:]
            for step in 0..<12 {
                let title = { "t\(Int.random(in: 0..<15, using: &generator))" }
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    var rows: [[String: AttributeValue]] = []
                    var batch: [String: Int16] = [:]
                    for _ in 0..<Int.random(in: 1...6, using: &generator) {
                        let name = title(), stars = Int16.random(in: 0..<9, using: &generator)
                        rows.append(["title": .string(name), "stars": .integer(Int64(stars))])
                        batch[name] = stars  // a later row of the same title wins
                    }
                    let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
                        var request = BatchInsertRequest<Note>(objects: rows)
                        request.resultType = .objectIDs
                        return try context.execute(request).objectIDs ?? []
                    }
                    model.merge(batch) { $1 }
                    // Each row's ID is the object that holds its title now: rows of one title share one.
                    #expect(ids.count == rows.count, "ECBRATES_SEED=\(seed): round \(round), step \(step)")
                    let titles = try context.performAndWait {
                        try ids.map { try (context.existingObject(with: $0) as! Note).title }
                    }
                    #expect(
                        titles
                            == rows.map { row in
                                if case .string(let title)? = row["title"] { return title } else { return "" }
                            },
                        "ECBRATES_SEED=\(seed): round \(round), step \(step)")
                case 1:
                    let limit = Int16.random(in: 0..<9, using: &generator),
                        stars = Int16.random(in: 0..<9, using: &generator)
                    try context.performAndWait {
                        _ = try context.execute(
                            BatchUpdateRequest<Note>(
                                predicate: #Predicate { $0.stars < limit },
                                propertiesToUpdate: ["stars": .integer(Int64(stars))]))
                    }
                    for (key, value) in model where value < limit { model[key] = stars }
                default:
                    let limit = Int16.random(in: 0..<9, using: &generator)
                    try context.performAndWait {
                        _ = try context.execute(
                            BatchDeleteRequest(FetchRequest<Note>(predicate: #Predicate { $0.stars > limit })))
                    }
                    model = model.filter { $0.value <= limit }
                }
                #expect(try Self.stored(container) == model, "ECBRATES_SEED=\(seed): round \(round), step \(step)")
            }
        }
    }
}
