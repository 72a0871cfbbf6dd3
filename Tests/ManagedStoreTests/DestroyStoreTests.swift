import Foundation
import ManagedStore
import TestSupport
import Testing

/// `destroyPersistentStore(at:type:)`, as Core Data's "Deletes (or truncates) the target
/// persistent store in accordance with the store class' requirements" (developer.apple.com,
/// NSPersistentStoreCoordinator): under SQLite's lock, so that a connection that has the store
/// open finds none, and never a file of another program.
@Suite struct DestroyStoreTests {
    @Test func destroyingAStoreRemovesItsFilesAndAnOpenContainerFindsNoStore() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("s.sqlite")
        let open = try makeContainer(in: dir, name: "s")
        try insertNotesSync(["a", "b"], into: open)
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))

        try PersistentStoreCoordinator(managedObjectModel: TestModel.model).destroyPersistentStore(
            at: url, type: .sqlite)
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: url.path + suffix), "\(suffix)")
        }
        #expect(throws: ManagedStoreError.self) { try PersistentStoreCoordinator.metadataForPersistentStore(at: url) }
        // The container that had it open reads no store, not its old rows.
        let reader = open.newBackgroundContext()
        #expect(throws: (any Error).self) { try reader.performAndWait { try reader.count(for: FetchRequest<Note>()) } }
        // A new store there starts empty.
        let fresh = try makeContainer(in: dir, name: "s")
        let context = fresh.newBackgroundContext()
        #expect(try context.performAndWait { try context.count(for: FetchRequest<Note>()) } == 0)
    }

    @Test func anotherProgramsFileTheCoordinatorsOwnStoreAndNothingAreLeftAlone() throws {
        let dir = TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: TestModel.model)
        let text = dir.file("notes.txt")
        try "not a store".write(to: text, atomically: true, encoding: .utf8)
        #expect(throws: ManagedStoreError.self) { try coordinator.destroyPersistentStore(at: text) }
        #expect(try String(contentsOf: text, encoding: .utf8) == "not a store")

        let other = dir.file("other.sqlite")
        let sqlite = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [other.path, "CREATE TABLE t (x); INSERT INTO t VALUES (1);"],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(sqlite.status == 0)
        #expect {
            try coordinator.destroyPersistentStore(at: other)
        } throws: { "\($0)".contains("another program") }
        #expect(FileManager.default.fileExists(atPath: other.path))

        let mine = try makeContainer(in: dir, name: "mine")
        let url = dir.file("mine.sqlite")
        #expect {
            try mine.persistentStoreCoordinator.destroyPersistentStore(at: url)
        } throws: { "\($0)".contains("is this coordinator's") }
        #expect(FileManager.default.fileExists(atPath: url.path))

        try coordinator.destroyPersistentStore(at: dir.file("none.sqlite"))  // nothing there: nothing to do
    }
}
