import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

/// Issue 43: an import's new rows reach every context of the store that merges automatically,
/// whichever method stored them: the object path's saves and the batch path's inserts both go
/// through the coordinator's relay (before, the batch path merged into the view context alone).
@Suite struct ImportMergeTests {
    @Test(arguments: [ImportMethod.object, .batch])
    func everyMergingContextHearsOfEveryNewRow(method: ImportMethod) async throws {
        let dir = TemporaryDirectory()
        let store = try RatesStore(url: dir.file("rates.sqlite"))
        // A context of the program's own, beside the view context, merging automatically.
        let other = store.container.newBackgroundContext()
        other.automaticallyMergesChangesFromParent = true
        let heard = Mutex<(view: Set<ManagedObjectID>, other: Set<ManagedObjectID>)>(([], []))
        let observers = [(store.viewContext, true), (other, false)].map { context, isView in
            NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.objectsDidChangeNotification, object: context, queue: nil
            ) { note in
                let inserted =
                    note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue]
                    as? Set<ManagedObject> ?? []
                let ids = Set(inserted.filter { $0 is Eurofxrefhist }.map(\.objectID))  // not the run log
                heard.withLock { isView ? $0.view.formUnion(ids) : $0.other.formUnion(ids) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        var options = ImportOptions()
        options.method = method
        options.chunkDays = 10
        let reports = try await ImportJob(
            store: store, sources: [.file(FixturePaths.ninetyDays.path)], options: options
        ).run()
        let stored = reports.reduce(0) { $0 + $1.rates }
        #expect(stored == 1856)
        try await Waiting.until(timeout: .seconds(10)) { () async -> Bool in
            heard.withLock { $0.view.count == stored && $0.other.count == stored }
        }
        let counts = heard.withLock { ($0.view.count, $0.other.count) }
        #expect(counts.0 == stored, "the view context heard of \(counts.0) of \(stored) new rows (\(method))")
        #expect(counts.1 == stored, "another merging context heard of \(counts.1) of \(stored) new rows (\(method))")
        withExtendedLifetime(other) {}
    }
}
