import Foundation
import ManagedStore
import TestSupport
import Testing

final class Attachment: ManagedObject {
    @Attribute var name: String
    @Attribute var blob: Data?
    @Attribute var thumbnail: Data?
}

enum AttachmentModel {
    static func entity(external: Bool = true) -> EntityDescription {
        EntityDescription(
            name: "Attachment", managedObjectClass: Attachment.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(
                    name: "blob", type: .binaryData, isOptional: true, allowsExternalBinaryDataStorage: external),
                AttributeDescription(name: "thumbnail", type: .binaryData, isOptional: true),
            ],
            uniquenessConstraints: [["name"]])
    }
    static let model = ManagedObjectModel(entities: [entity()])
}

/// Core Data's `allowsExternalBinaryDataStorage`: a large value is kept in a file beside the
/// store (`.<name>_SUPPORT/_EXTERNAL_DATA`), a small one in its row, and reading is the same
/// either way. Seeded inserts, edits and deletions around the threshold, checked after each
/// save by a new context against the test's own values, and by Python reading the table and
/// the files: each large value's column names a file holding exactly its bytes, each small one
/// is a BLOB, and no file is left that no row names.
@MainActor @Suite struct ExternalStorageTests {
    /// `ECBRATES_SEED` rebuilds a run; else the suite's own seed.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(UInt64.init) ?? 1202

    static let threshold = AttributeDescription.externalStorageThreshold

    static func bytes(_ count: Int, _ generator: inout SeededGenerator) -> Data {
        var data = Data(count: count)
        for index in 0..<count where index % 97 == 0 || index < 64 {
            data[index] = UInt8.random(in: 0...255, using: &generator)
        }
        return data
    }

    /// What Python finds wrong between the store at `url` and `expected` (name: value): a value
    /// that differs, a large value in its row or a small one in a file, a file no row names.
    static func problems(_ url: URL, expected: [String: Data?]) throws -> [String] {
        let script = """
            import sqlite3, sys, json, os, base64
            request = json.load(sys.stdin)
            path, expected, threshold = request['path'], request['expected'], request['threshold']
            folder = os.path.join(os.path.dirname(path), '.' + os.path.splitext(os.path.basename(path))[0] + '_SUPPORT', '_EXTERNAL_DATA')
            problems, named = [], set()
            for name, value in sqlite3.connect(path).execute('SELECT name, blob FROM Attachment'):
                want = expected.pop(name, 'missing')
                if want == 'missing':
                    problems.append('unexpected row ' + name); continue
                want = None if want is None else base64.b64decode(want)
                if isinstance(value, str):
                    prefix = 'x-managedstore-external:'
                    assert value.startswith(prefix), value
                    named.add(value[len(prefix):])
                    value = open(os.path.join(folder, value[len(prefix):]), 'rb').read()
                    if len(value) < threshold: problems.append(name + ' is in a file but small')
                elif value is not None and len(value) >= threshold:
                    problems.append(name + ' is in its row but large')
                if value != want: problems.append(name + ' differs')
            problems += ['row missing: ' + n for n in expected]
            files = set(os.listdir(folder)) if os.path.isdir(folder) else set()
            problems += ['file no row names: ' + f for f in sorted(files - named)]
            print(json.dumps(problems))
            """
        let request: [String: Any] = [
            "path": url.path, "threshold": threshold,
            "expected": expected.mapValues { $0.map { $0.base64EncodedString() } as Any },
        ]
        let input = try JSONSerialization.data(withJSONObject: request)
        return try JSONDecoder().decode([String].self, from: PythonTools.run(script, input: input))
    }

    @Test func largeValuesLiveInFilesAndEveryFileBelongsToARow() throws {
        var generator = SeededGenerator(seed: Self.seed)
        let sizes = [0, 10, Self.threshold - 1, Self.threshold, Self.threshold + 1, 3 * Self.threshold]
        for round in 0..<4 {
            let directory = TemporaryDirectory()
            let url = directory.file("Files.sqlite")
            let container = try makeContainer(in: directory, name: "Files", model: AttachmentModel.model)
            let context = container.viewContext
            var expected: [String: Data?] = [:]
            var objects: [String: Attachment] = [:]
            var serial = 0
            for step in 0..<30 {
                let label = "ECBRATES_SEED=\(Self.seed) round \(round) step \(step)"
                switch Int.random(in: 0..<6, using: &generator) {
                case 0, 1:
                    serial += 1
                    let attachment = Attachment(context: context)
                    attachment.name = "a\(serial)"
                    let blob =
                        Bool.random(using: &generator)
                        ? Self.bytes(sizes.randomElement(using: &generator)!, &generator) : nil
                    attachment.blob = blob
                    attachment.thumbnail = Self.bytes(Self.threshold + 5, &generator)  // no external storage
                    expected[attachment.name] = .some(blob)
                    objects[attachment.name] = attachment
                case 2:
                    guard let name = expected.keys.sorted().randomElement(using: &generator) else { continue }
                    let blob = Self.bytes(sizes.randomElement(using: &generator)!, &generator)
                    objects[name]!.blob = blob
                    expected[name] = .some(blob)
                case 3:
                    guard let name = expected.keys.sorted().randomElement(using: &generator) else { continue }
                    context.delete(objects.removeValue(forKey: name)!)
                    expected[name] = nil
                case 4:
                    // Another attribute changes: the value keeps its file.
                    guard let name = expected.keys.sorted().randomElement(using: &generator) else { continue }
                    objects[name]!.thumbnail = Data([1, 2, 3])
                default:
                    try context.save()
                    #expect(try Self.problems(url, expected: expected) == [], "\(label)")
                    let reader = container.newBackgroundContext()
                    let read = try reader.performAndWait {
                        try Dictionary(
                            uniqueKeysWithValues: reader.fetch(FetchRequest<Attachment>()).map { ($0.name, $0.blob) })
                    }
                    #expect(read == expected, "\(label): another context")
                }
            }
            try context.save()
            #expect(try Self.problems(url, expected: expected) == [], "ECBRATES_SEED=\(Self.seed) round \(round)")
        }
    }

    /// A save that fails leaves no file behind, as it leaves no row; an unchanged value keeps
    /// its file across saves; a batch delete removes the files of the rows it deletes; a batch
    /// update cannot set such an attribute; a predicate cannot read one; destroying the store
    /// removes its support directory.
    @Test func filesFollowTheRowsThroughFailuresBatchesAndDestruction() throws {
        var generator = SeededGenerator(seed: Self.seed)
        let directory = TemporaryDirectory()
        let url = directory.file("Files.sqlite")
        let container = try makeContainer(in: directory, name: "Files", model: AttachmentModel.model)
        let context = container.viewContext
        let big = Self.bytes(2 * Self.threshold, &generator)
        let first = Attachment(context: context)
        (first.name, first.blob) = ("one", big)
        try context.save()
        let folder = ExternalStorageTests.folder(of: url)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1)
        first.name = "uno"
        try context.save()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == files,
            "an unchanged value keeps its file")

        // The second insert breaks the uniqueness constraint: the save fails, and its file goes.
        let twin = Attachment(context: context)
        (twin.name, twin.blob) = ("uno", Self.bytes(3 * Self.threshold, &generator))
        #expect(throws: ManagedStoreError.self) { try context.save() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == files, "a failed save's file")
        context.rollback()

        #expect {
            try context.execute(BatchUpdateRequest<Attachment>(propertiesToUpdate: ["blob": .null]))
        } throws: { error in
            "\(error)".contains("blob allows external storage, which a batch update does not set")
        }
        #expect {
            try context.fetch(FetchRequest<Attachment>(predicate: #Predicate { $0.blob == nil }))
        } throws: { error in
            "\(error)".contains(
                "'blob' of Attachment allows external storage: a predicate, sort descriptor or aggregate cannot")
        }
        _ = try context.execute(BatchDeleteRequest(FetchRequest<Attachment>()))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "a batch delete's files")

        let other = try makeContainer(in: directory, name: "Other", model: AttachmentModel.model)
        let kept = Attachment(context: other.viewContext)
        (kept.name, kept.blob) = ("kept", big)
        try other.viewContext.save()
        let otherURL = directory.file("Other.sqlite")
        try other.persistentStoreCoordinator.remove(other.persistentStoreCoordinator.persistentStores[0])
        try container.persistentStoreCoordinator.destroyPersistentStore(at: otherURL)
        #expect(!FileManager.default.fileExists(atPath: ExternalDataSupport.support(of: otherURL).path))
    }

    /// In memory, and without the option, every value stays in its row; the option on a
    /// string is an error of the model.
    @Test func withoutAFileEveryValueStaysInItsRow() throws {
        let memory = try makeContainer(in: nil, name: "Files", model: AttachmentModel.model)
        let attachment = Attachment(context: memory.viewContext)
        (attachment.name, attachment.blob) = ("m", Data(count: 2 * Self.threshold))
        try memory.viewContext.save()
        memory.viewContext.refresh(attachment, mergeChanges: false)
        #expect(attachment.blob?.count == 2 * Self.threshold)

        let directory = TemporaryDirectory()
        let plain = try makeContainer(
            in: directory, name: "Plain", model: ManagedObjectModel(entities: [AttachmentModel.entity(external: false)])
        )
        let inline = Attachment(context: plain.viewContext)
        (inline.name, inline.blob) = ("p", Data(count: 2 * Self.threshold))
        try plain.viewContext.save()
        #expect(
            try Self.problems(directory.file("Plain.sqlite"), expected: ["p": Data(count: 2 * Self.threshold)]) == [
                "p is in its row but large"
            ])

        let wrong = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Attachment", managedObjectClass: ManagedObject.self,
                attributes: [AttributeDescription(name: "title", type: .string, allowsExternalBinaryDataStorage: true)])
        ])
        let said = ModelMistakeTests.problems(wrong) ?? ""
        #expect(
            said.contains(
                "attribute 'title' allows external storage, which only a stored, not derived, binary data attribute has"
            ),
            "\(said)")
    }

    /// A reader pinned to a snapshot from before a save that replaced a value still reads the
    /// old value (its file waits in the trash); turning the option off moves an old file out
    /// when its value is next written; a uniqueness constraint or an aggregate on such an
    /// attribute is refused.
    @Test func releasedFilesWaitForOlderReaders() throws {
        var generator = SeededGenerator(seed: Self.seed)
        let directory = TemporaryDirectory()
        let url = directory.file("Files.sqlite")
        let container = try makeContainer(in: directory, name: "Files", model: AttachmentModel.model)
        let writer = container.viewContext
        let old = Self.bytes(2 * Self.threshold, &generator)
        let attachment = Attachment(context: writer)
        (attachment.name, attachment.blob) = ("a", old)
        try writer.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
        attachment.blob = Self.bytes(3 * Self.threshold, &generator)
        try writer.save()
        let seen = try reader.performAndWait { try reader.fetch(FetchRequest<Attachment>()).first?.blob }
        #expect(seen == old, "the pinned reader reads the value of its snapshot")
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder(of: url).path).count == 1)

        // Without the option now (no migration: the option is not in the schema), the stored
        // file still reads, and a new value goes in the row, its old file out.
        try reader.performAndWait { try reader.setQueryGenerationFrom(nil) }
        try container.persistentStoreCoordinator.remove(container.persistentStoreCoordinator.persistentStores[0])
        let plain = try makeContainer(
            in: directory, name: "Files", model: ManagedObjectModel(entities: [AttachmentModel.entity(external: false)])
        )
        let again = try #require(try plain.viewContext.fetch(FetchRequest<Attachment>()).first)
        #expect(again.blob?.count == 3 * Self.threshold)
        again.blob = Data(count: 3 * Self.threshold)
        try plain.viewContext.save()
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder(of: url).path).isEmpty)
        #expect(
            try Self.problems(url, expected: ["a": Data(count: 3 * Self.threshold)]) == ["a is in its row but large"])

        let constrained = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Attachment", managedObjectClass: ManagedObject.self,
                attributes: [
                    AttributeDescription(name: "blob", type: .binaryData, allowsExternalBinaryDataStorage: true)
                ],
                uniquenessConstraints: [["blob"]])
        ])
        #expect((ModelMistakeTests.problems(constrained) ?? "").contains("names an attribute with external storage"))
        #expect {
            let memory = try makeContainer(in: nil, name: "Files", model: AttachmentModel.model).viewContext
            _ = try memory.aggregate(FetchRequest<Attachment>(), .countDistinct(\.name))
            return try memory.aggregate(FetchRequest<Attachment>(), .countDistinct(\.blob))
        } throws: { error in
            "\(error)".contains("'blob' of Attachment allows external storage")
        }
    }

    static func folder(of url: URL) -> URL {
        ExternalDataSupport.support(of: url).appendingPathComponent("_EXTERNAL_DATA")
    }
}

/// The support directory's place, as Core Data names it (the test's own spelling of it).
enum ExternalDataSupport {
    static func support(of url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.deletingPathExtension().lastPathComponent)_SUPPORT")
    }
}
