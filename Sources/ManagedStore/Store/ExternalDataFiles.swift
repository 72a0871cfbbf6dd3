import Foundation

/// The files that hold the values of attributes with external storage (Core Data's
/// `allowsExternalBinaryDataStorage`): a value of at least
/// ``AttributeDescription/externalStorageThreshold`` bytes is a file of its own, named by a
/// UUID, in `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store, where Core Data keeps
/// them; its column holds `x-managedstore-external:<uuid>` as TEXT, where a value kept in the
/// row is a BLOB. A store in memory keeps every value in its rows.
struct ExternalDataFiles: Sendable {
    static let prefix = "x-managedstore-external:"

    /// The directory of the files; nil for a store in memory.
    let directory: URL?

    init(storeURL: URL) {
        guard storeURL.path != "/dev/null" else {
            directory = nil
            return
        }
        directory = Self.supportDirectory(ofStore: storeURL).appendingPathComponent("_EXTERNAL_DATA")
    }

    /// `.<store name>_SUPPORT` beside the store file (Core Data's name for it).
    static func supportDirectory(ofStore url: URL) -> URL {
        let name = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
    }

    /// Whether a column's text is a reference to a file.
    static func isReference(_ text: String) -> Bool { text.hasPrefix(prefix) }

    /// The file a reference names (a UUID's text only: a reference names no other path).
    func file(_ reference: String) throws -> URL {
        let name = reference.dropFirst(Self.prefix.count)
        guard let directory, Self.isReference(reference), UUID(uuidString: String(name)) != nil else {
            throw ManagedStoreError.externalDataUnreadable(
                file: directory?.appendingPathComponent(String(name)),
                reason: "'\(reference)' is no external data reference")
        }
        return directory.appendingPathComponent(String(name))
    }

    /// Writes `data` to a new file, fully, before its reference is stored; returns the reference.
    func write(_ data: Data) throws -> String {
        guard let directory else { preconditionFailure("ManagedStore: external data written for a store in memory") }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = UUID().uuidString
        try data.write(to: directory.appendingPathComponent(name), options: .atomic)
        return Self.prefix + name
    }

    /// Where released files wait before they are removed: a reader whose snapshot of the
    /// store is older than the save that released one may still read it there.
    var trash: URL? { directory?.deletingLastPathComponent().appendingPathComponent("_EXTERNAL_TRASH") }

    /// How long a released file waits in the trash.
    static let trashDelay: TimeInterval = 120

    /// The value a reference names (from the trash, for a reader of an older snapshot).
    func read(_ reference: String) throws -> Data {
        let file = try file(reference)
        do {
            return try Data(contentsOf: file)
        } catch {
            if let trash, let data = try? Data(contentsOf: trash.appendingPathComponent(file.lastPathComponent)) {
                return data
            }
            throw ManagedStoreError.externalDataUnreadable(
                file: file, reason: "the file of an attribute's value with external storage cannot be read: \(error)")
        }
    }

    /// Removes the files of `references`, which no row names (a save's that rolled back).
    func remove(_ references: [String]) {
        for reference in references {
            guard let file = try? file(reference) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Moves the files of `references`, which a committed save released, to the trash, and
    /// empties the trash of the files released more than ``trashDelay`` ago. A reader still
    /// on a snapshot from before that save finds them there meanwhile (another context's
    /// fetch, another process); one older than the delay gets `externalDataUnreadable`.
    func release(_ references: [String]) {
        guard let trash, !references.isEmpty else { return }
        let manager = FileManager.default
        try? manager.createDirectory(at: trash, withIntermediateDirectories: true)
        let now = Date()
        for reference in references {
            guard let file = try? file(reference) else { continue }
            let target = trash.appendingPathComponent(file.lastPathComponent)
            guard (try? manager.moveItem(at: file, to: target)) != nil else { continue }
            try? manager.setAttributes([.modificationDate: now], ofItemAtPath: target.path)
        }
        let names = (try? manager.contentsOfDirectory(atPath: trash.path)) ?? []
        for name in names {
            let path = trash.appendingPathComponent(name).path
            let moved = (try? manager.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? now
            if now.timeIntervalSince(moved) > Self.trashDelay { try? manager.removeItem(atPath: path) }
        }
    }
}

/// The files a save wrote and the references it released: removed, respectively, if the
/// transaction rolls back and once it has committed. A class, so that the save's row writers
/// (non-mutating) can record into it. Used by one save on its writer's thread.
final class ExternalDataChanges {
    let files: ExternalDataFiles
    private(set) var written: [String] = []
    private(set) var released: [String] = []

    init(files: ExternalDataFiles) { self.files = files }

    /// `values` as they are bound for `entity`'s row: each large value of an attribute with
    /// external storage written to a file and replaced by its reference; `kept[slot]`, a
    /// reference the row already holds for an unchanged value, is bound as it is.
    func bound(
        _ values: [AttributeValue], of entity: EntityDescription, kept: [Int: String] = [:]
    ) throws
        -> (values: [AttributeValue], written: [String])
    {
        guard files.directory != nil, !entity.externalSlots.isEmpty else { return (values, []) }
        var bound = values
        var new: [String] = []
        for slot in entity.externalSlots {
            if let reference = kept[slot] {
                bound[slot] = .string(reference)
            } else if case .binaryData(let data) = values[slot],
                data.count >= AttributeDescription.externalStorageThreshold
            {
                let reference: String
                do {
                    reference = try files.write(data)
                } catch {
                    throw ManagedStoreError.externalDataUnreadable(
                        file: files.directory,
                        reason:
                            "the value of \(entity.name).\(entity.storedProperties[slot].name) could not be written: \(error)"
                    )
                }
                written.append(reference)
                new.append(reference)
                bound[slot] = .string(reference)
            }
        }
        return (bound, new)
    }

    /// Removes files this save wrote for a row it did not write after all.
    func discard(_ references: [String]) {
        files.remove(references)
        written.removeAll { references.contains($0) }
    }

    /// Records references whose rows no longer name them once the save commits.
    func release(_ references: [String]) { released += references }

    /// The references the row `key` of `entity` holds now, by slot (a value kept in the row has none).
    func references(
        of entity: EntityDescription, key: Int64, on connection: SQLiteConnection
    ) throws -> [Int: String] {
        guard files.directory != nil, !entity.binarySlots.isEmpty else { return [:] }
        let columns = entity.binarySlots.map { entity.quotedColumns[$0] }.joined(separator: ", ")
        let statement = try connection.statement("SELECT \(columns) FROM \(entity.quotedTable) WHERE Z_PK = ?")
        defer { statement.reset() }
        try statement.bind(key, 1)
        guard try statement.step() else { return [:] }
        var found: [Int: String] = [:]
        for (column, slot) in entity.binarySlots.enumerated()
        where statement.columnType(Int32(column)) == SQLITE_TEXT_TYPE {
            let text = statement.text(Int32(column))
            if ExternalDataFiles.isReference(text) { found[slot] = text }
        }
        return found
    }
}
