import Foundation

extension SQLiteStore {
    // MARK: Opening

    /// Opens (or creates) the store that `description` names, for `model`.
    ///
    /// An existing file is checked before anything is written to it: a file that is not a
    /// store, or a store of another model, is refused and left as it was.
    static func open(_ description: PersistentStoreDescription, model: ManagedObjectModel) throws -> SQLiteStore {
        guard let url = description.url else { throw ManagedStoreError.noPersistentStore }
        if description.isInMemory {
            let connection = try SQLiteConnection(path: ":memory:", mode: .init(create: true))
            let identifier = try connection.transaction { () throws -> String in
                let identifier = try StoreSchema.create(on: connection, model: model)
                if description.persistentHistoryTracking { try HistoryLog.createTables(on: connection) }
                return identifier
            }
            let store = PersistentStore(
                identifier: identifier, url: url, isReadOnly: description.isReadOnly,
                configurationName: model.configurationName)
            return SQLiteStore(
                persistentStore: store, model: model, writer: connection, readers: [], description: description,
                history: HistoryMode(description, storeHasHistory: false))
        }

        let path = url.path
        let fileManager = FileManager.default
        if description.isReadOnly {
            guard fileManager.fileExists(atPath: path) else { throw ManagedStoreError.storeNotFound(url: url) }
            let (connection, metadata, filename) = try openReadOnly(url: url, timeout: description.timeout)
            // A database without tables is a store another process is creating (its tables
            // come in one transaction): to a reader, there is no store yet.
            guard let metadata else { throw ManagedStoreError.storeNotFound(url: url) }
            if metadata.formatVersion < StoreSchema.formatVersion {
                throw ManagedStoreError.storeNeedsMigration(url: url, changes: [StoreFormatUpgrade.summary])
            }
            if description.stagedMigrationManager != nil && metadata.schemaLines != model.schemaLines {
                throw ManagedStoreError.storeNeedsMigration(url: url, changes: ["its staged migration"])
            }
            if let migration = try metadata.migration(to: model, url: url) {
                guard description.shouldMigrateStoreAutomatically && description.shouldInferMappingModelAutomatically
                else {
                    throw metadata.incompatibility(with: model, url: url)
                }
                throw ManagedStoreError.storeNeedsMigration(url: url, changes: migration.summary)
            }
            // Views the model changed are made by a process that can write the store: one that
            // could is told to (as for a migration); one that cannot reads the tables as they are.
            if !model.views.isEmpty, description.shouldMigrateStoreAutomatically,
                access(path, W_OK) == 0, access(url.deletingLastPathComponent().path, W_OK) == 0
            {
                let differences = StoreSchema.viewDifferences(stored: metadata.views, model: model)
                if !differences.isEmpty { throw ManagedStoreError.storeNeedsMigration(url: url, changes: differences) }
            }
            let store = PersistentStore(
                identifier: metadata.identifier, url: url, isReadOnly: true, isImmutable: filename.uri,
                configurationName: model.configurationName)
            return SQLiteStore(
                persistentStore: store, model: model, writer: nil, readers: [connection], description: description,
                readerFilename: filename)
        }

        let directory = url.deletingLastPathComponent()
        if !fileManager.fileExists(atPath: directory.path) {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        // A store to write needs its file and its directory (for the WAL) writable; SQLite would
        // otherwise open it read-only and fail later with a less helpful error.
        if fileManager.fileExists(atPath: path) && (access(path, W_OK) != 0 || access(directory.path, W_OK) != 0) {
            throw ManagedStoreError.readOnlyStore(url: url)
        }
        let connection = try SQLiteConnection(
            path: path, mode: .init(create: true, keepsWALFiles: description.keepsWriteAheadLogFiles))
        connection.setBusyTimeout(description.timeout)
        let identifier: String
        if let metadata = try StoreSchema.inspect(connection, url: url) {
            if metadata.formatVersion < StoreSchema.formatVersion {
                try StoreSchema.enableWAL(on: connection)
                // In a write transaction of its own, checked again inside it: another process
                // may have upgraded the store meanwhile. A migration of the model follows.
                try connection.transaction {
                    guard let current = try StoreSchema.inspect(connection, url: url),
                        current.formatVersion < StoreSchema.formatVersion
                    else { return }
                    try StoreFormatUpgrade.apply(current, on: connection, url: url)
                }
            }
            if let manager = description.stagedMigrationManager, metadata.schemaLines != model.schemaLines {
                try StoreSchema.enableWAL(on: connection)
                // Checked again inside the write transaction, as below.
                try connection.transaction {
                    guard let current = try StoreSchema.inspect(connection, url: url),
                        current.schemaLines != model.schemaLines
                    else { return }
                    _ = try manager.migrate(
                        on: connection, schemaLines: current.schemaLines, identifier: current.identifier, to: model,
                        url: url)
                }
            } else if try metadata.migration(to: model, url: url) != nil {
                guard description.shouldMigrateStoreAutomatically && description.shouldInferMappingModelAutomatically
                else {
                    throw metadata.incompatibility(with: model, url: url)
                }
                try StoreSchema.enableWAL(on: connection)
                // Checked again inside the write transaction: another process may have migrated
                // the store meanwhile.
                try connection.transaction {
                    guard let current = try StoreSchema.inspect(connection, url: url),
                        let migration = try current.migration(to: model, url: url)
                    else { return }
                    try migration.apply(on: connection, model: model, url: url)
                }
            }
            try StoreSchema.enableWAL(on: connection)
            if try !StoreSchema.viewDifferences(on: connection, model: model).isEmpty {
                try connection.transaction { try StoreSchema.synchronizeViews(on: connection, model: model) }
            }
            // Indexes only speed fetches up: a store that cannot build one now (its disk is
            // full, another process holds the lock) is still opened, and builds it next time.
            try? StoreSchema.createMissingIndexes(on: connection, model: model)
            identifier = metadata.identifier
        } else {
            // Other processes may be creating the same store at this instant: the check and the
            // creation are one write transaction, so one of them creates it and the others
            // find it made (they wait for the writer, up to the busy timeout).
            try StoreSchema.enableWAL(on: connection)
            identifier = try connection.transaction { () throws -> String in
                if let metadata = try StoreSchema.inspect(connection, url: url) {
                    try metadata.checkCompatible(with: model, url: url)
                    return metadata.identifier
                }
                // The history's tables with the rest: a store appears whole, and no process
                // opening it meanwhile has a second write to make.
                let identifier = try StoreSchema.create(on: connection, model: model)
                if description.persistentHistoryTracking { try HistoryLog.createTables(on: connection) }
                return identifier
            }
        }
        try connection.execute("PRAGMA synchronous = NORMAL")
        var storeHasHistory = try HistoryLog.exists(on: connection)
        // History written before transactions kept their bundle ID gains the column.
        if try storeHasHistory && description.persistentHistoryTracking && !HistoryLog.hasBundleColumn(on: connection) {
            try connection.transaction { try HistoryLog.addBundleColumn(on: connection) }
        }
        if description.persistentHistoryTracking && !storeHasHistory {
            try connection.transaction { try HistoryLog.createTables(on: connection) }
            storeHasHistory = true
        }
        // A store that records history, opened without tracking it, is read-only (Core Data:
        // "Forcing into Read Only mode store"), and says so.
        let store = PersistentStore(
            identifier: identifier, url: url,
            isReadOnly: storeHasHistory && !description.persistentHistoryTracking,
            configurationName: model.configurationName)
        return SQLiteStore(
            persistentStore: store, model: model, writer: connection, readers: [], description: description,
            history: HistoryMode(description, storeHasHistory: storeHasHistory))
    }

    /// The first connection of a read-only store, its metadata, and how its readers name it.
    ///
    /// Reading a WAL-mode database takes its WAL index (`-shm`), which SQLite creates when it is
    /// missing; on a read-only file system it cannot, and the open fails. A store closed cleanly
    /// has no WAL (its last connection checkpointed it into the file), so there it is opened as
    /// `immutable`, which reads the file alone. The same holds for a store in a directory this
    /// user cannot write (a store shared read-only by another user), where SQLite says
    /// "read-only" rather than "cannot open"; its owner can still write it, so each read checks
    /// that the file did not change under it (``FileSignature``).
    private static func openReadOnly(
        url: URL, timeout: TimeInterval
    )
        throws -> (SQLiteConnection, StoreSchema.Metadata?, (name: String, uri: Bool))
    {
        let path = url.path
        let connection = try openReader(path: path, uri: false, timeout: timeout)
        do {
            return (connection, try StoreSchema.inspect(connection, url: url), (path, false))
        } catch let error as SQLiteError
            where SQLiteError.ResultCode.cannotOpen ~= error.resultCode
            || SQLiteError.ResultCode.readOnly ~= error.resultCode
        {
            let directory = url.deletingLastPathComponent().path
            let wal =
                (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
            guard access(directory, W_OK) != 0, wal == 0,
                let escaped = path.addingPercentEncoding(
                    withAllowedCharacters: .urlPathAllowed.subtracting(["?", "#", "%"]))
            else { throw error }
            let name = "file:\(escaped)?immutable=1"
            let immutable = try openReader(path: name, uri: true, timeout: timeout)
            return (immutable, try StoreSchema.inspect(immutable, url: url), (name, true))
        }
    }
}
