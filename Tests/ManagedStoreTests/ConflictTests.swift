import Foundation
import ManagedStore
import Testing

/// Behaviour 6: uniqueness constraints and optimistic locking, under each merge policy.
@Suite struct ConflictTests {
    // MARK: Uniqueness constraints

    /// The store holds note "x" (stars 1, body "stored"); a new context inserts another "x"
    /// (stars 2, no body) and saves under `policy`. Returns the stored (stars, body), the number
    /// of stored notes, and whether the inserted object ended up with the stored row's ID.
    private func insertDuplicate(
        under policy: MergePolicy
    ) async throws -> (stars: Int16, body: String?, count: Int, tookStoredID: Bool, objectStars: Int16) {
        let container = try makeContainer(in: nil)
        let storedID = try await storedNote("x", stars: 1, body: "stored", in: container)
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        let (tookStoredID, objectStars) = try await context.perform { () throws -> (Bool, Int16) in
            let note = Note.make("x", stars: 2, in: context)
            try context.save()
            #expect(!note.isInserted)
            #expect(!context.hasChanges)
            return (note.objectID == storedID, note.stars)
        }
        let reader = container.newBackgroundContext()
        return try await reader.perform {
            let notes = try reader.fetch(FetchRequest<Note>())
            return (notes[0].stars, notes[0].body, notes.count, tookStoredID, objectStars)
        }
    }

    @Test func constraintConflictUnderErrorThrowsAndStoresNothing() async throws {
        let container = try makeContainer(in: nil)
        let storedID = try await storedNote("x", in: container)
        let context = container.newBackgroundContext()
        try await context.perform {
            let note = Note.make("x", in: context)
            let temporaryID = note.objectID
            do {
                try context.save()
                Issue.record("the save should have thrown")
            } catch let error as ManagedStoreError {
                guard case .saveConflicts(let constraint, let locking) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(locking.isEmpty)
                #expect(constraint.count == 1)
                #expect(constraint.first?.constraint == ["title"])
                #expect(constraint.first?.values == ["title": .string("x")])
                #expect(constraint.first?.conflictingObjectIDs == [temporaryID])
                #expect(constraint.first?.databaseObjectID == storedID)
                #expect(
                    error.description
                        == "the save failed with 1 conflict: Note unique on (title): \(temporaryID) conflict with the stored \(storedID) (title = \"x\")"
                )
            }
            #expect(note.isInserted, "a failed save keeps the context's changes")
            #expect(context.hasChanges)
        }
        #expect(try await storedNoteCount(container) == 1)
    }

    @Test func constraintConflictUnderObjectTrumpWritesTheObjectsValuesOverTheRow() async throws {
        let result = try await insertDuplicate(under: .mergeByPropertyObjectTrump)
        #expect(result.count == 1)
        #expect(result.stars == 2)
        #expect(result.body == nil)
        #expect(result.tookStoredID)
    }

    @Test func constraintConflictUnderOverwriteWritesTheObjectsValuesOverTheRow() async throws {
        let result = try await insertDuplicate(under: .overwrite)
        #expect(result.count == 1)
        #expect(result.stars == 2 && result.body == nil)
        #expect(result.tookStoredID)
    }

    @Test func constraintConflictUnderStoreTrumpKeepsTheRow() async throws {
        let result = try await insertDuplicate(under: .mergeByPropertyStoreTrump)
        #expect(result.count == 1)
        #expect(result.stars == 1 && result.body == "stored")
        #expect(result.tookStoredID)
        #expect(result.objectStars == 1, "the object takes the stored values")
    }

    @Test func constraintConflictUnderRollbackKeepsTheRow() async throws {
        let result = try await insertDuplicate(under: .rollback)
        #expect(result.count == 1)
        #expect(result.stars == 1 && result.body == "stored")
        #expect(result.tookStoredID && result.objectStars == 1)
    }

    @Test func duplicatesWithinOneSaveConflictWithEachOther() async throws {
        let container = try makeContainer(in: nil)
        let context = container.newBackgroundContext()
        try await context.perform {
            let first = Note(context: context)
            first.title = "y"
            let second = Note(context: context)
            second.title = "y"
            second.stars = 8
            do {
                try context.save()
                Issue.record("the save should have thrown")
            } catch ManagedStoreError.saveConflicts(let constraint, _) {
                #expect(constraint.count == 1)
                #expect(constraint.first?.conflictingObjectIDs == [first.objectID, second.objectID])
                #expect(constraint.first?.databaseObjectID == nil)
            }
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.save()
            #expect(second.managedObjectContext === context)
            #expect(first.managedObjectContext == nil, "the object the later one superseded leaves the context")
        }
        let stars = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest<Note>()).map(\.stars)
        }
        #expect(stars == [8])
    }

    @Test func anErrorWithManyConflictsNamesTheFirstFiveAndCountsTheRest() async throws {
        let container = try makeContainer(in: nil)
        let context = container.newBackgroundContext()
        let message = await context.perform { () -> String in
            for index in 0..<16 {
                Note.make("t\(index % 8)", in: context)
            }
            do {
                try context.save()
                return "saved"
            } catch {
                return "\(error)"
            }
        }
        #expect(message.hasPrefix("the save failed with 8 conflicts: Note unique on (title): "))
        #expect(message.hasSuffix("; and 3 more"))
        #expect(message.components(separatedBy: "Note unique on").count == 6)
    }

    /// 120 notes in one save go in multi-row statements; the stored "n0077" sits in the second
    /// batch, which is replayed row by row to resolve it. Every other note is inserted once.
    @Test(arguments: [MergePolicy.error, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump])
    func aConflictInsideABatchIsResolvedRowByRow(policy: MergePolicy) async throws {
        let container = try makeContainer(in: nil)
        let storedID = try await storedNote("n0077", stars: 1, in: container)
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        let outcome = await context.perform { () -> String in
            for index in 0..<120 {
                let note = Note(context: context)
                note.title = String(format: "n%04d", index)
                note.stars = 5
            }
            do {
                try context.save()
                return "saved"
            } catch ManagedStoreError.saveConflicts(let constraint, _) {
                return constraint.map { "\($0.values["title"]!) \($0.databaseObjectID == storedID)" }.joined(
                    separator: ",")
            } catch {
                return "\(error)"
            }
        }
        let stored = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])).map { "\($0.title):\($0.stars)" }
        }
        switch policy {
        case .error:
            #expect(outcome == "\"n0077\" true")
            #expect(stored == ["n0077:1"], "the failed save wrote nothing")
        case .mergeByPropertyObjectTrump:
            #expect(outcome == "saved")
            #expect(stored.count == 120)
            #expect(stored[77] == "n0077:5")
        default:
            #expect(outcome == "saved")
            #expect(stored.count == 120)
            #expect(stored[77] == "n0077:1")
        }
    }

    // MARK: Optimistic locking

    /// Counter "c" (value 0, flag false) is read by two contexts. The first renames it and sets
    /// value 1, and saves; the second, still holding what it read, sets value 2 and flag true,
    /// and saves under `policy`. Returns the stored (name, value, flag).
    private func conflictingUpdates(under policy: MergePolicy) async throws -> (name: String, value: Int64, flag: Bool)
    {
        let container = try makeContainer(in: nil)
        let id = try await storedCounter("c", in: container)
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        second.mergePolicy = policy
        try await second.perform {
            second.retainsRegisteredObjects = true; _ = try second.existingObject(with: id)
        }
        try await first.perform {
            let counter = try first.existingObject(with: id) as! Counter
            counter.name = "renamed"
            counter.value = 1
            try first.save()
        }
        try await second.perform {
            let counter = second.registeredObject(for: id) as! Counter
            #expect(counter.value == 0, "the second context still holds what it read")
            counter.value = 2
            counter.flag = true
            try second.save()
        }
        return try await container.performBackgroundTask { context in
            let counter = try context.existingObject(with: id) as! Counter
            return (counter.name, counter.value, counter.flag)
        }
    }

    @Test func optimisticLockingConflictUnderErrorThrows() async throws {
        await #expect {
            _ = try await conflictingUpdates(under: .error)
        } throws: { error in
            guard case ManagedStoreError.saveConflicts(let constraint, let locking)? = error as? ManagedStoreError
            else { return false }
            return constraint.isEmpty && locking.count == 1 && locking[0].cachedVersion == 1
                && locking[0].persistedVersion == 2
                && locking[0].persistedSnapshot?["name"] == .string("renamed")
                && locking[0].objectSnapshot["value"] == .integer(2)
        }
    }

    @Test func optimisticLockingUnderObjectTrumpKeepsTheObjectsChangesAndTheStoresOthers() async throws {
        let stored = try await conflictingUpdates(under: .mergeByPropertyObjectTrump)
        #expect(stored.name == "renamed" && stored.value == 2 && stored.flag)
    }

    @Test func optimisticLockingUnderStoreTrumpKeepsTheStoresChangesAndTheObjectsOthers() async throws {
        let stored = try await conflictingUpdates(under: .mergeByPropertyStoreTrump)
        #expect(stored.name == "renamed" && stored.value == 1 && stored.flag)
    }

    @Test func optimisticLockingUnderOverwriteWritesTheWholeObject() async throws {
        let stored = try await conflictingUpdates(under: .overwrite)
        #expect(stored.name == "c" && stored.value == 2 && stored.flag)
    }

    @Test func optimisticLockingUnderRollbackDropsTheObjectsChanges() async throws {
        let stored = try await conflictingUpdates(under: .rollback)
        #expect(stored.name == "renamed" && stored.value == 1 && !stored.flag)
    }

    @Test func updatingARowDeletedMeanwhileConflictsUnderError() async throws {
        let container = try makeContainer(in: nil)
        let id = try await storedCounter("c", in: container)
        let holder = container.newBackgroundContext()
        holder.retainsRegisteredObjects = true
        try await holder.perform { _ = try holder.existingObject(with: id) }
        try await container.performBackgroundTask { context in
            context.delete(try context.existingObject(with: id))
            try context.save()
        }
        await holder.perform {
            (holder.registeredObject(for: id) as! Counter).value = 5
            #expect {
                try holder.save()
            } throws: { error in
                guard case ManagedStoreError.saveConflicts(_, let locking)? = error as? ManagedStoreError else {
                    return false
                }
                return locking.count == 1 && locking[0].persistedVersion == nil
                    && locking[0].description == "\(id) was deleted from the store since it was read"
            }
        }
    }
}
