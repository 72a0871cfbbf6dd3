import Foundation
import ManagedStore
import TestSupport
import Testing

/// `remove(_:)`, as Core Data's `NSPersistentStoreCoordinator.remove(_:)` "Removes a given
/// persistent store": here it also checkpoints and truncates the write-ahead log, so that a
/// program that removes its store before it ends leaves the store whole in its file.
@Suite struct StoreRemovalTests {
    @Test func removingTheStoreLeavesItWholeInItsFileAndTheContextsWithout() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(in: directory, name: "Removed")
        try await insertNotes((0..<2_000).map { "note \($0)" }, into: container)
        let url = directory.file("Removed.sqlite")
        let wal = url.path + "-wal"
        let before = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(before > 0, "the saves are in the write-ahead log before the removal")
        let coordinator = container.persistentStoreCoordinator
        let store = try #require(coordinator.persistentStores.first)
        try coordinator.remove(store)
        #expect(coordinator.persistentStores.isEmpty)
        let after = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(after == 0, "the log is checkpointed and truncated: \(after) bytes left")
        // The contexts have no store now.
        let context = container.newBackgroundContext()
        let refused = await context.perform { (try? context.count(for: FetchRequest<Note>())) == nil }
        #expect(refused, "a fetch after the removal has no store to read")
        // Removing it again, or a store of another coordinator, is refused.
        #expect(throws: ManagedStoreError.self) { try coordinator.remove(store) }
        // The file alone holds every note, for another coordinator; and this one may add it again.
        let again = try makeContainer(in: directory, name: "Removed")
        #expect(try await storedNoteCount(again) == 2_000)
        try coordinator.addPersistentStore(with: PersistentStoreDescription(url: url))
        #expect(try await storedNoteCount(container) == 2_000)
    }
}
