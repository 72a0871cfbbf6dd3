import Foundation
import ManagedStore

/// The three-attribute entity the insert benchmark writes.
final class Sample: ManagedObject {
    @Attribute var day: Date
    @Attribute var code: String
    @Attribute var value: Decimal
}

/// Inserts `count` samples through one background context, saving every `batch`, while the
/// viewContext merges every save on the main queue; reports objects per second, timed until
/// the last merge has run.
enum InsertBenchmark {
    static func model(unique: Bool) -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Sample", managedObjectClass: Sample.self,
                attributes: [
                    AttributeDescription(name: "day", type: .date),
                    AttributeDescription(name: "code", type: .string),
                    AttributeDescription(name: "value", type: .decimal),
                ],
                uniquenessConstraints: unique ? [["day", "code"]] : [])
        ])
    }

    static func run(
        count: Int, batch: Int, unique: Bool, history: Bool = false, undo: Bool = false, storeURL: URL
    ) async throws -> [String: Double] {
        try? FileManager.default.removeItem(at: storeURL)
        let container = PersistentContainer(name: "bench", managedObjectModel: model(unique: unique))
        var description = PersistentStoreDescription(url: storeURL)
        description.persistentHistoryTracking = history
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        let view = container.viewContext
        let worker = container.newBackgroundContext()
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveNotification, object: worker, queue: nil
        ) { note in
            guard let changes = ContextSaveChanges(note) else { return }
            view.perform { view.mergeChanges(fromContextDidSave: changes) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let codes: [String] = (0..<31).map { index in String([letters[index % 26], letters[index / 26], "X"]) }
        let values = (0..<100).map { Decimal(string: "1.\(1000 + $0 * 37)")! }

        let start = ContinuousClock.now
        let phases = try await worker.perform { () throws -> (Double, Double) in
            // With an undo manager, each save's event is recorded (and cleared by the save).
            if undo { worker.undoManager = UndoManager() }
            var inserted = 0
            var creating = Duration.zero, saving = Duration.zero
            while inserted < count {
                let end = min(count, inserted + batch)
                let t0 = ContinuousClock.now
                for index in inserted..<end {
                    let sample = Sample(context: worker)
                    sample.day = Date(timeIntervalSince1970: Double(index / 31) * 86_400)
                    sample.code = codes[index % 31]
                    sample.value = values[index % 100]
                }
                let t1 = ContinuousClock.now
                try worker.save()
                saving += ContinuousClock.now - t1
                creating += t1 - t0
                inserted = end
            }
            return (creating.seconds, saving.seconds)
        }
        await view.perform {}  // every merge queued on the main queue has run
        let seconds = (ContinuousClock.now - start).seconds
        let stored = try await worker.perform { try worker.count(for: FetchRequest<Sample>()) }
        guard stored == count else { throw BenchmarkError("stored \(stored) of \(count) samples") }
        return [
            "objects": Double(count), "seconds": seconds, "objects_per_second": Double(count) / seconds,
            "creating_seconds": phases.0, "saving_seconds": phases.1,
        ]
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
