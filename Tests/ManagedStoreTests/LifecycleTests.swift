import Foundation
import ManagedStore
import Synchronization
import TestSupport
import Testing

final class Folder: ManagedObject {
    @Attribute var name: String
    @Relationship var files: Set<File>

    override func prepareForDeletion() {
        super.prepareForDeletion()
        LifecycleTests.log.withLock { $0.append("folder \(name) with \(files.count) files") }
    }
}

final class File: ManagedObject {
    @Attribute var name: String
    @Relationship var folder: Folder?

    override func prepareForDeletion() {
        super.prepareForDeletion()
        LifecycleTests.log.withLock { $0.append("file \(name) in \(folder?.name ?? "no folder")") }
    }
}

/// The life-cycle methods a managed object subclass overrides, as Core Data documents them.
@Suite(.serialized) struct LifecycleTests {
    static let log = Mutex<[String]>([])

    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Folder", managedObjectClass: Folder.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [.toMany("files", destination: "File", inverse: "folder", deleteRule: .cascade)]),
        EntityDescription(
            name: "File", managedObjectClass: File.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [.toOne("folder", destination: "Folder", inverse: "files", deleteRule: .nullify)]),
    ])

    /// Core Data's `prepareForDeletion()`: "Provides an opportunity to add code into the life
    /// cycle of the managed object before deleting it … such as custom propagation before
    /// relationships are torn down" (developer.apple.com, NSManagedObject/prepareForDeletion()).
    /// So it is told once per deleted object, with its relationships still in place, and an
    /// object a cascade deletes is told too.
    @Test func prepareForDeletionComesOnceBeforeTheRelationshipsAreTornDown() throws {
        let container = try makeContainer(in: nil, name: "Lifecycle", model: Self.model)
        let context = container.viewContext
        try context.performAndWait {
            Self.log.withLock { $0 = [] }
            let folder = Folder(context: context)
            folder.name = "f"
            for name in ["a", "b", "c"] {
                let file = File(context: context)
                file.name = name
                file.folder = folder
            }
            try context.save()
            let c = folder.files.first { $0.name == "c" }!
            context.delete(c)
            #expect(Self.log.withLock { $0 } == ["file c in f"], "told with its folder still set")
            #expect(folder.files.map(\.name).sorted() == ["a", "b"], "then nullified")
            context.delete(c)
            #expect(Self.log.withLock { $0.count } == 1, "once")

            context.delete(folder)
            let lines = Self.log.withLock { $0 }
            #expect(lines.count == 4 && lines[1] == "folder f with 2 files", "\(lines)")
            #expect(
                lines[2...].sorted() == ["file a in f", "file b in f"], "a cascade tells each file, folder still set")
            try context.save()
            #expect(try context.count(for: FetchRequest<File>()) == 0)
        }
    }
}
