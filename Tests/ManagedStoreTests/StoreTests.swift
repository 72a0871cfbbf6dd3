import CSQLite
import Foundation
import ManagedStore
import TestSupport
import Testing

/// A model like the test model, but whose Note has one more attribute.
final class WiderNote: ManagedObject {
    @Attribute var title: String
}

/// Behaviours 9 and 10: stores that do not fit are refused untouched; in-memory stores work;
/// a file store keeps every saved object for a new process.
@Suite struct StoreTests {
    static let widerModel = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Note", managedObjectClass: WiderNote.self,
            attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "body", type: .string, isOptional: true),
                AttributeDescription(name: "stars", type: .integer16, defaultValue: .integer(0)),
                AttributeDescription(name: "created", type: .date, defaultValue: .date(Date(timeIntervalSince1970: 0))),
                AttributeDescription(name: "price", type: .decimal, isOptional: true),
                AttributeDescription(name: "extra", type: .string),
            ], uniquenessConstraints: [["title"]]),
        TestModel.counter,
    ])

    @Test func aStoreOfAnIncompatibleModelIsRefusedAndLeftUntouched() async throws {
        let dir = TemporaryDirectory()
        do {
            let container = try makeContainer(in: dir)
            try await insertNotes(["a"], into: container)
        }  // the container closes: the WAL is checkpointed into the file and removed
        let url = dir.file("Test.sqlite")
        let before = try Data(contentsOf: url)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))

        #expect {
            _ = try makeContainer(in: dir, model: Self.widerModel)
        } throws: { error in
            "\(error)"
                == "the store at \(url.path) cannot be migrated to this model: Note.extra: it is new, not optional and has no default, so the stored rows would have no value for it. Nothing was written"
        }
        #expect(try Data(contentsOf: url) == before)
        let reopened = try makeContainer(in: dir)
        #expect(try await storedNoteCount(reopened) == 1)
    }

    @Test(arguments: [
        (
            "random bytes", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }),
            "it is not an SQLite database"
        ),
        ("a text file", Data("date,currency,rate\n2026-09-30,USD,1.1355\n".utf8), "it is not an SQLite database"),
    ])
    func aFileThatIsNotAStoreIsRefusedAndLeftUntouched(kind: String, content: Data, reason: String) throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Test.sqlite")
        try content.write(to: url)
        #expect {
            _ = try makeContainer(in: dir)
        } throws: { error in
            "\(error)" == "\(url.path) is not a ManagedStore store: \(reason)"
        }
        #expect(try Data(contentsOf: url) == content, "\(kind) left as it was")
    }

    @Test func anSQLiteDatabaseOfAnotherProgramIsRefused() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Test.sqlite")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()", url.path,
        ]
        try process.run()
        process.waitUntilExit()
        let before = try Data(contentsOf: url)
        #expect {
            _ = try makeContainer(in: dir)
        } throws: { error in
            "\(error)"
                == "\(url.path) is not a ManagedStore store: it is an SQLite database of another program (it has no Z_METADATA table)"
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func theInMemoryStoreWorksAndIsPrivateToItsContainer() async throws {
        let first = try makeContainer(in: nil)
        let second = try makeContainer(in: nil)
        #expect(first.persistentStoreCoordinator.persistentStores.first?.isInMemory == true)
        try await insertNotes(["a", "b"], into: first)
        #expect(try await storedNoteCount(first) == 2)
        #expect(try await storedNoteCount(second) == 0)
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }

    @Test func aFileStoreReopenedByANewProcessHasEverySavedObject() async throws {
        let dir = TemporaryDirectory()
        let titles = (0..<300).map { String(format: "note %03d", $0) }
        do {
            let container = try makeContainer(in: dir)
            try await insertNotes(titles, into: container)
            let view = container.viewContext
            try await view.perform {
                let note = try view.fetch(FetchRequest<Note>(predicate: #Predicate { $0.title == "note 007" }))[0]
                note.price = Decimal(string: "1.1790")
                note.body = "ünïcødé"
                try view.save()
            }
        }
        let path = dir.url.path
        await #expect(processExitsWith: .success) { [path = path as String] in
            let container = PersistentContainer(name: "Test", managedObjectModel: TestModel.model)
            container.persistentStoreDescriptions = [
                PersistentStoreDescription(url: URL(fileURLWithPath: path).appendingPathComponent("Test.sqlite"))
            ]
            try container.loadPersistentStores()
            let context = container.newBackgroundContext()
            let notes = try context.performAndWait {
                try context.fetch(FetchRequest<Note>(sortBy: [SortDescriptor(\.title)]))
            }
            let expected = (0..<300).map { String(format: "note %03d", $0) }
            guard notes.map(\.title) == expected else { exit(2) }
            guard notes.map(\.stars) == (0..<300).map({ Int16($0) }) else { exit(3) }
            guard notes[7].price == Decimal(string: "1.179"), notes[7].body == "ünïcødé" else { exit(4) }
            guard notes[299].created == Date(timeIntervalSince1970: 299 * 86_400) else { exit(5) }
        }
    }

    @Test func loadPersistentStoresReportsThroughItsCompletionHandler() throws {
        let dir = TemporaryDirectory()
        try Data("not a store".utf8).write(to: dir.file("Test.sqlite"))
        let container = PersistentContainer(name: "Test", managedObjectModel: TestModel.model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: dir.file("Test.sqlite"))]
        var reported: [String] = []
        container.loadPersistentStores { description, error in
            reported.append("\(description.url!.lastPathComponent): \(error.map { "\($0)" } ?? "ok")")
        }
        #expect(
            reported == [
                "Test.sqlite: \(dir.file("Test.sqlite").path) is not a ManagedStore store: it is not an SQLite database"
            ])
    }

    /// `$XDG_DATA_HOME`, else `$HOME/.local/share` (the XDG base directory specification), else
    /// the user database's home directory (which Foundation's `homeDirectoryForCurrentUser`
    /// reads, whatever `$HOME` says).
    @Test func theDefaultDirectoryFollowsXDGDataHome() {
        let url = PersistentContainer.defaultDirectoryURL()
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            #expect(url.path == data)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            #expect(url.path == URL(fileURLWithPath: home, isDirectory: true).path + "/.local/share")
        } else {
            #expect(url.path == FileManager.default.homeDirectoryForCurrentUser.path + "/.local/share")
        }
        let container = PersistentContainer(name: "Notes", managedObjectModel: TestModel.model)
        #expect(container.persistentStoreDescriptions.first?.url?.lastPathComponent == "Notes.sqlite")
    }
}

/// Behaviour 11: MANAGEDSTORE_CONCURRENCY_DEBUG=1 traps a touch off the context's queue,
/// naming the context and the object (run in a child process).
@Suite struct ConcurrencyDebugTests {
    @Test func touchingAnObjectOffItsQueueTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("MANAGEDSTORE_CONCURRENCY_DEBUG", "1", 1)
            let container = try makeContainer(in: nil)
            let worker = container.newBackgroundContext()
            worker.name = "worker"
            let note = worker.performAndWait { () -> Note in
                let note = Note(context: worker)
                note.title = "inside is fine"
                return note
            }
            _ = note.title  // outside the worker's queue
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("ManagedStore concurrency violation: Note x-managedstore:///Note/t"))
        #expect(stderr.contains("of context 'worker' (privateQueue) was touched on"))
        #expect(stderr.contains("outside that context's queue"))
    }

    @Test func usingAContextOffItsQueueTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("MANAGEDSTORE_CONCURRENCY_DEBUG", "1", 1)
            let container = try makeContainer(in: nil)
            let worker = container.newBackgroundContext()
            worker.name = "importer"
            _ = try worker.fetch(FetchRequest<Note>())
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains(
                "ManagedStore concurrency violation: context 'importer' (privateQueue) was used (fetch(_:)) on"))
    }

    @Test func withoutTheVariableTheSameTouchDoesNotTrap() async throws {
        await #expect(processExitsWith: .success) {
            unsetenv("MANAGEDSTORE_CONCURRENCY_DEBUG")
            let container = try makeContainer(in: nil)
            let worker = container.newBackgroundContext()
            let note = worker.performAndWait { () -> Note in
                let note = Note(context: worker)
                note.title = "x"
                return note
            }
            guard note.title == "x" else { exit(2) }
        }
    }
}

/// Closing a store leaves only the store file: the WAL is checkpointed into it and removed.
@Suite struct StoreClosingTests {
    @Test func closingAStoreAfterReadsAndWritesRemovesTheWAL() async throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Test.sqlite")
        do {
            let container = try makeContainer(in: dir)
            try await insertNotes(["a", "b"], into: container)
            #expect(try await storedNoteCount(container) == 2)  // a read through the reader pool
            #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        }
        // The last connection closes when the last queue lets the container go, which under a
        // busy suite may be a moment after the scope ends.
        let closed = Waiting.until(timeout: .seconds(10)) {
            !FileManager.default.fileExists(atPath: url.path + "-wal")
                && !FileManager.default.fileExists(atPath: url.path + "-shm")
        }
        #expect(closed, "the -wal and -shm files are still there")
    }

    /// Switching a new file to WAL takes an exclusive lock while holding a shared one, and
    /// SQLite answers that with `SQLITE_BUSY` at once, without the busy handler, when another
    /// connection holds the write lock (processes creating one store at the same instant meet
    /// there). The open waits for it, within the store's timeout, as for any other lock.
    @Test func aStoreOpenedWhileAnotherConnectionHoldsTheWriteLockWaitsForIt() async throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Test.sqlite")
        var raw: OpaquePointer?
        #expect(sqlite3_open_v2(url.path, &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK)
        defer { sqlite3_close_v2(raw) }
        #expect(sqlite3_exec(raw, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        // Used by the thread alone until it commits; the test reads nothing of it meanwhile.
        nonisolated(unsafe) let holder = raw
        let released = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            sqlite3_exec(holder, "COMMIT", nil, nil, nil)
        }
        released.start()
        let started = Date()
        let container = try makeContainer(in: dir, timeout: 10)
        #expect(Date().timeIntervalSince(started) >= 0.25, "the open did not wait for the lock")
        try await insertNotes(["a"], into: container)
        #expect(try await storedNoteCount(container) == 1)
    }

    /// `keepsWriteAheadLogFiles`: the last connection's close checkpoints the log into the store
    /// and truncates it, and leaves both files; a read-only
    /// connection that may not create files (SQLite's `readonly_shm`) then reads the store.
    @Test func aStoreThatKeepsItsLogFilesLeavesThemEmptyAndReadable() async throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Test.sqlite")
        do {
            let container = PersistentContainer(name: "Test", managedObjectModel: TestModel.model)
            var description = PersistentStoreDescription(url: url)
            description.keepsWriteAheadLogFiles = true
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            try await insertNotes(["a", "b", "c"], into: container)
        }
        let files = FileManager.default
        let truncated = Waiting.until(timeout: .seconds(10)) {
            (try? files.attributesOfItem(atPath: url.path + "-wal")[.size] as? NSNumber)?.intValue == 0
        }
        #expect(truncated, "the -wal file is gone or was not truncated")
        #expect(files.fileExists(atPath: url.path + "-shm"))
        let encoded = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
        var db: OpaquePointer?
        #expect(
            sqlite3_open_v2("file:\(encoded)?readonly_shm=1", &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == 0)
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT count(*) FROM Note", -1, &statement, nil) == 0)
        defer { sqlite3_finalize(statement) }
        #expect(sqlite3_step(statement) == 100 && sqlite3_column_int(statement, 0) == 3)
    }
}

/// `deferringIndexes(of:during:)`: a bulk load without the entity's indexes, which come back
/// afterwards, also when the load fails, and on the next open when the process died.
@Suite struct DeferredIndexTests {
    /// The names of the indexes of table `Note`, read with sqlite3 directly rather than
    /// through ManagedStore.
    func indexNames(_ url: URL) throws -> Set<String> {
        var raw: OpaquePointer?
        guard sqlite3_open_v2(url.path, &raw, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw CocoaError(.fileReadUnknown)
        }
        defer { sqlite3_close(raw) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(
            raw, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Note'", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var names: Set<String> = []
        while sqlite3_step(statement) == SQLITE_ROW { names.insert(String(cString: sqlite3_column_text(statement, 0))) }
        return names
    }

    @Test func theIndexesAreGoneDuringTheLoadAndBackAfterIt() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        let url = dir.file("Test.sqlite")
        #expect(try indexNames(url) == ["Note_unique_0", "Note_index_created"])
        try await container.persistentStoreCoordinator.deferringIndexes(of: "Note") {
            #expect(try indexNames(url) == ["Note_unique_0"], "the uniqueness constraint's index stays")
            try await insertNotes(["a", "b", "c"], into: container)
        }
        #expect(try indexNames(url) == ["Note_unique_0", "Note_index_created"])
        #expect(try await storedNoteCount(container) == 3)
    }

    @Test func aFailingLoadStillGetsItsIndexesBack() async throws {
        let dir = TemporaryDirectory()
        let container = try makeContainer(in: dir)
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await container.persistentStoreCoordinator.deferringIndexes(of: "Note") { throw Failure() }
        }
        #expect(try indexNames(dir.file("Test.sqlite")) == ["Note_unique_0", "Note_index_created"])
        await #expect(throws: ManagedStoreError.self) {
            try await container.persistentStoreCoordinator.deferringIndexes(of: "Nothing") {}
        }
    }

    @Test func theNextOpenBuildsIndexesALoadLeftOut() async throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Test.sqlite")
        do { _ = try makeContainer(in: dir) }
        var raw: OpaquePointer?
        #expect(sqlite3_open(url.path, &raw) == SQLITE_OK)
        #expect(sqlite3_exec(raw, "DROP INDEX Note_index_created", nil, nil, nil) == SQLITE_OK)  // as a killed load leaves it
        sqlite3_close(raw)
        #expect(try indexNames(url) == ["Note_unique_0"])
        do { _ = try makeContainer(in: dir) }
        #expect(try indexNames(url) == ["Note_unique_0", "Note_index_created"])
    }
}
