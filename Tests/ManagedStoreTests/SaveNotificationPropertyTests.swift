import Foundation
import ManagedStore
import Synchronization
import Testing

/// The objects a save's notifications carry, over seeded random events, against a model of
/// what was inserted, deleted and superseded kept by the test itself.
///
/// Core Data (`NSManagedObjectContextObjectsDidChange`, `NSManagedObjectContextDidSave`): the
/// first lists under `NSInsertedObjectsKey` the objects inserted since it was last posted (a
/// save posts it for the changes of the current event); the second the objects the save
/// inserted. A save hands objectsDidChange's set on to didSave when they are the same objects,
/// so this pins that it never hands on a set that is not.
@Suite struct SaveNotificationPropertyTests {
    /// The sets one observer saw, as titles.
    private struct Seen {
        var didChangeInserted: [[String]] = []
        var didSaveInserted: [String]?
    }

    @Test func theSavesInsertedObjectsAreThoseItWrote() throws {
        let seed =
            UInt64(ProcessInfo.processInfo.environment["ECBRATES_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<300 {
            try checkRound(round, seed: seed, using: &generator)
        }
    }

    private func checkRound(_ round: Int, seed: UInt64, using generator: inout SeededGenerator) throws {
        let container = try makeContainer(in: nil)
        let storedTitles = (0..<6).map { "stored \($0)" }
        let setup = container.newBackgroundContext()
        try setup.performAndWait {
            for title in storedTitles { _ = Note.make(title, in: setup) }
            try setup.save()
        }
        let worker = container.newBackgroundContext()
        // An inserted note with a stored title takes the stored row; when this context already
        // holds that row's object, the inserted one leaves the context (its save's fate).
        worker.mergePolicy = .mergeByPropertyObjectTrump
        let seen = Mutex(Seen())
        let observers = [
            NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.objectsDidChangeNotification, object: worker, queue: nil
            ) { note in
                let inserted =
                    note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
                let titles = (inserted ?? []).map { ($0 as! Note).title }.sorted()
                seen.withLock { $0.didChangeInserted.append(titles) }
            },
            NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveNotification, object: worker, queue: nil
            ) { note in
                let inserted =
                    note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
                seen.withLock { $0.didSaveInserted = (inserted ?? []).map { ($0 as! Note).title }.sorted() }
            },
        ]
        defer { for observer in observers { NotificationCenter.default.removeObserver(observer) } }

        // The model: titles inserted and still inserted, titles whose stored object the worker
        // holds, and what each event inserted.
        var live: [String: Note] = [:]
        var held: Set<String> = []
        var expectedEvents: [[String]] = []
        var fresh = 0
        var heldObjects: [Note] = []
        let events = Int.random(in: 1...4, using: &generator)
        for event in 0..<events {
            var insertedNow: [String] = []
            try worker.performAndWait {
                if Bool.random(using: &generator), let title = storedTitles.randomElement(using: &generator),
                    !held.contains(title), live[title] == nil
                {
                    let title = title
                    var request = FetchRequest<Note>(predicate: #Predicate { $0.title == title })
                    request.returnsObjectsAsFaults = false
                    heldObjects += try worker.fetch(request)
                    held.insert(title)
                }
                // Deleting an object inserted in an earlier event drops it.
                if event > 0, Bool.random(using: &generator),
                    let title = live.keys.sorted().randomElement(using: &generator)
                {
                    worker.delete(live.removeValue(forKey: title)!)
                }
                for _ in 0..<Int.random(in: 0...5, using: &generator) {
                    let title: String
                    if Int.random(in: 0..<4, using: &generator) == 0,
                        let stored = storedTitles.filter({ live[$0] == nil }).randomElement(using: &generator)
                    {
                        title = stored
                    } else {
                        title = "new \(fresh)"
                        fresh += 1
                    }
                    live[title] = Note.make(title, in: worker)
                    insertedNow.append(title)
                }
                if event == events - 1 { try worker.save() }
            }
            // A save's own objectsDidChange is posted by the save; an event without insertions
            // (or without changes) posts none with inserted objects.
            if !insertedNow.isEmpty { expectedEvents.append(insertedNow.sorted()) }
        }
        let expectedSaved = live.keys.filter { !held.contains($0) }.sorted()
        let got = seen.withLock { $0 }
        let context = "seed \(seed), round \(round) (ECBRATES_SEED=\(seed) rebuilds it)"
        #expect(got.didChangeInserted.filter { !$0.isEmpty } == expectedEvents, "\(context)")
        if live.isEmpty {
            #expect(got.didSaveInserted == nil || got.didSaveInserted == [], "\(context)")
        } else {
            #expect(got.didSaveInserted == expectedSaved, "\(context): live \(live.keys.sorted()), held \(held)")
        }
        _ = heldObjects
    }

    /// Core Data: an object does not own its context (`NSManagedObject.managedObjectContext` is
    /// nil once the context is gone). An object whose context went must be insertable into a new
    /// one, even a context made at the freed one's address: the context's passes compare its
    /// objects by what they hold of it (a ``ContextLink``), never by the context's address.
    @Test func anObjectOutlivesItsContextAndJoinsAnother() throws {
        let container = try makeContainer(in: nil)
        for round in 0..<40 {
            var orphan: Note?
            do {
                let old = container.newBackgroundContext()
                old.performAndWait { orphan = Note.make("orphan \(round)", in: old) }
            }
            let note = try #require(orphan)
            #expect(note.managedObjectContext == nil, "round \(round): the context is gone")
            let new = container.newBackgroundContext()
            try new.performAndWait {
                new.insert(note)
                #expect(note.isInserted, "round \(round)")
                #expect(new.insertedObjects.contains(note), "round \(round)")
                try new.save()
            }
            #expect(try storedNoteCount(container) == round + 1, "round \(round)")
        }
    }
}

extension SaveNotificationPropertyTests {
    /// Counts the notes in the store through a fresh context.
    fileprivate func storedNoteCount(_ container: PersistentContainer) throws -> Int {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<Note>()) }
    }
}
