import Foundation

extension PersistentStoreCoordinator {
    /// Destroys the store at `url`, as Core Data's `destroyPersistentStore(at:type:options:)`
    /// "deletes (or truncates) the target persistent store in accordance with the store class'
    /// requirements": under SQLite's write lock, every table, index and view of the store is
    /// dropped (so another connection that has it open finds no store, never half of one),
    /// then the file and its `-wal` and `-shm` files are removed. Removing files by hand
    /// instead could leave another connection's write-ahead log to be replayed into a new store.
    ///
    /// ```swift
    /// try coordinator.destroyPersistentStore(at: url, type: .sqlite)
    /// ```
    ///
    /// Nothing there: nothing to do. A file that is not a ManagedStore store (another program's
    /// SQLite database, anything else) is refused with ``ManagedStoreError/notAStore(url:reason:)``
    /// and left as it is; so is this coordinator's own store, with
    /// ``ManagedStoreError/storeInUse(url:)``. Waits for another writer up to `timeout` seconds.
    public func destroyPersistentStore(
        at url: URL, type: PersistentStore.StoreType = .sqlite, timeout: TimeInterval = 5
    ) throws {
        if persistentStores.contains(where: { $0.url.standardizedFileURL == url.standardizedFileURL }) {
            throw ManagedStoreError.storeInUse(url: url)
        }
        guard type == .sqlite else { return }  // an in-memory store has no file to destroy
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            let connection = try SQLiteConnection(path: url.path, mode: .init(create: false))
            connection.setBusyTimeout(timeout)
            _ = try StoreSchema.inspect(connection, url: url)  // throws for a file that is not a store
            try connection.transaction {
                let statement = try connection.statement(
                    "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND type IN ('view', 'table')")
                var objects: [(type: String, name: String)] = []
                while try statement.step() { objects.append((statement.text(0), statement.text(1))) }
                statement.reset()
                for object in objects.sorted(by: { $0.type == "view" && $1.type != "view" }) {
                    try connection.execute(
                        "DROP \(object.type == "view" ? "VIEW" : "TABLE") IF EXISTS \(SQLiteConnection.quote(object.name))"
                    )
                }
            }
            _ = try? connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        for suffix in ["", "-wal", "-shm"] {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        }
        // The files of values with external storage, beside the store (Core Data's too).
        let support = ExternalDataFiles.supportDirectory(ofStore: url)
        if FileManager.default.fileExists(atPath: support.path) { try FileManager.default.removeItem(at: support) }
    }
}
