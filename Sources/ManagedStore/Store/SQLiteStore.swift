import CSQLite
import Dispatch
import Foundation
import Synchronization

/// The SQLite file (or in-memory database) behind a coordinator: one serial writer connection
/// and a pool of read connections, in WAL mode, so that a fetch never waits for a write.
///
/// An in-memory store has one connection, which reads and writes in turn.
final class SQLiteStore: Sendable {
    let persistentStore: PersistentStore
    let model: ManagedObjectModel
    /// The writer; nil for a read-only store. Held for the whole of each write transaction, so
    /// it is a lock that sleeps (`NSLock`): `Mutex` is a priority-inheritance futex on Linux,
    /// whose waiters spin in the kernel while the holder runs, costing a core per waiting writer.
    private let writer: Locked<SQLiteConnection?>
    /// Idle read connections (file stores only).
    private let idleReaders = Mutex<[SQLiteConnection]>([])
    /// Set once the history tables are seen: they are never dropped, so the check (a query of
    /// sqlite_master, a read transaction of its own) is not made again for every token asked.
    let historySeen = Atomic<Bool>(false)
    /// How many write transactions other than batch requests this store has run, counted after
    /// each ends: a fetch notes it before reading, so that a fault whose row it cached can tell
    /// whether a save through this coordinator may have changed the row since. (Core Data's row
    /// cache belongs to the coordinator and a save updates it; a batch request bypasses it.)
    let writeCount = Atomic<UInt64>(0)
    /// Bounds the read connections in use at once.
    private let readerSlots: DispatchSemaphore
    /// Whether the store lives in memory (one connection: no query generations).
    let inMemory: Bool
    private let timeout: Double
    /// How read connections name the file: its path, or an `immutable=1` URI for a store on a
    /// read-only file system (see ``openReadOnly(url:timeout:)``).
    private let readerFilename: (name: String, uri: Bool)
    /// For an `immutable` store, the file as it was when opened: SQLite reads such a file
    /// without locks, so every read checks afterwards that nobody changed it meanwhile.
    private let immutableSignature: FileSignature?
    /// Whether saves record persistent history, and for how long it is kept.
    let history: HistoryMode
    /// True when saves record persistent history.
    var recordsHistory: Bool { if case .tracking = history { return true } else { return false } }

    init(
        persistentStore: PersistentStore, model: ManagedObjectModel, writer: SQLiteConnection?,
        readers: [SQLiteConnection], description: PersistentStoreDescription,
        readerFilename: (name: String, uri: Bool)? = nil, history: HistoryMode = .off
    ) {
        self.history = history
        self.readerFilename = readerFilename ?? (persistentStore.url.path, false)
        self.immutableSignature = self.readerFilename.uri ? FileSignature(path: persistentStore.url.path) : nil
        self.persistentStore = persistentStore
        self.model = model
        self.writer = Locked(writer)
        self.idleReaders.withLock { $0 = readers }
        self.readerSlots = DispatchSemaphore(value: max(1, description.maximumReaders))
        self.inMemory = description.isInMemory
        self.timeout = description.timeout
    }

    /// A store on `connection`, which is inside a staged migration's transaction: reads and
    /// writes go through it (writes as savepoints), so that a handler sees and makes the
    /// migration's uncommitted changes. For the migration only.
    static func bound(
        to connection: SQLiteConnection, model: ManagedObjectModel, url: URL, identifier: String
    ) -> SQLiteStore {
        let store = PersistentStore(identifier: identifier, url: url, isReadOnly: false)
        return SQLiteStore(
            persistentStore: store, model: model, writer: connection, readers: [],
            description: PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null")))
    }

    /// Closes the readers before the writer: SQLite checkpoints the WAL into the store and
    /// removes it only when the last connection closes, and only a connection that can write.
    deinit {
        idleReaders.withLock { $0.removeAll() }
    }

    var url: URL { persistentStore.url }

    /// Closes the store's connections, for ``PersistentStoreCoordinator/remove(_:)``: the idle
    /// readers first, then the writer, after it checkpoints the write-ahead log into the file
    /// and truncates it to nothing (`wal_checkpoint(TRUNCATE)`), so that the file is the whole
    /// store. A reader still in use (a query generation still pinned) keeps its connection until
    /// it is let go; then the checkpoint cannot pass its snapshot, and says so (`SQLITE_BUSY`).
    func close() throws {
        idleReaders.withLock { $0.removeAll() }
        try writer.withLock { connection in
            if let open = connection, !inMemory {
                let busy = try open.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")
                if busy == 1 {
                    throw ManagedStoreError.storeBusy(
                        url: url, reason: "a query generation still reads it; its write-ahead log was not truncated")
                }
            }
            connection = nil
        }
    }

    // MARK: Indexes

    /// Drops the indexes `entity` declares, for a bulk load; ``createMissingIndexes()`` builds
    /// them again.
    func dropIndexes(of entity: EntityDescription) throws {
        try write { try StoreSchema.dropIndexes(of: entity, on: $0) }
    }

    /// Builds the model's indexes the store lacks.
    func createMissingIndexes() throws {
        try write { try StoreSchema.createMissingIndexes(on: $0, model: model) }
    }

    // MARK: Connections

    /// Runs `body` with a read connection. File stores take one from the pool (opening one if
    /// none is idle), so reads run beside a write; in-memory stores use their one connection.
    func read<T: Sendable>(in generation: QueryGeneration? = nil, _ body: (SQLiteConnection) throws -> T) throws -> T {
        if let generation, let pin = try generation.pin(for: self) { return try pin.read(body) }
        if inMemory {
            return try writer.withLock { connection in
                guard let connection else { throw ManagedStoreError.noPersistentStore }
                return try body(connection)
            }
        }
        readerSlots.wait()
        defer { readerSlots.signal() }
        let connection = try idleReaders.withLock { $0.popLast() } ?? openReader()
        defer { idleReaders.withLock { $0.append(connection) } }
        let result = try body(connection)
        if let immutableSignature, FileSignature(path: url.path) != immutableSignature {
            throw ManagedStoreError.storeChangedWhileReading(url: url)
        }
        return result
    }

    /// A new generation: a read transaction on a connection of its own, which sees the store as
    /// it is now until it is let go of.
    func makeGeneration() throws -> QueryGeneration.Pin {
        if inMemory {
            throw ManagedStoreError.queryGenerationUnavailable(
                reason: "an in-memory store has one connection, which cannot hold a read transaction beside its writes")
        }
        return try QueryGeneration.Pin(connection: openReader(), store: persistentStore)
    }

    /// The order in which a save or a query generation of several stores takes their writers:
    /// by the identifiers the files keep, the same in every coordinator and every process, so
    /// that two of them never wait for each other's store in a circle.
    static func lockOrder(_ first: SQLiteStore, _ second: SQLiteStore) -> Bool {
        first.persistentStore.identifier < second.persistentStore.identifier
    }

    /// Runs `body` holding the writer, so that no save through this store's coordinator
    /// commits meanwhile (a read-only store has no writer to hold).
    func holdingWriter<T>(_ body: () throws -> T) throws -> T {
        try writer.withLock { _ in try body() }
    }

    private func openReader() throws -> SQLiteConnection {
        try Self.openReader(path: readerFilename.name, uri: readerFilename.uri, timeout: timeout)
    }

    /// A read-only connection. Its pages are read into SQLite's page cache (2 MB), never memory
    /// mapped: a map made a long read (a whole history streamed as JSON lines) count every page
    /// of the store in the process's memory, where the cache keeps it flat; a lookup costs
    /// about 1.4 µs more for it (scripts/bench: 13.4 µs, against 12.0 mapped).
    static func openReader(path: String, uri: Bool, timeout: TimeInterval) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: .init(readOnly: true, uri: uri))
        connection.setBusyTimeout(timeout)
        try connection.execute("PRAGMA mmap_size = 0")
        return connection
    }

    /// Runs `body` in a write transaction on the writer (`BEGIN IMMEDIATE`), committing when it
    /// returns and rolling back when it throws. Writers take turns. `isBatch`: a batch request,
    /// which fetched faults do not learn of (see `writeCount`).
    func write<T: Sendable>(isBatch: Bool = false, _ body: (SQLiteConnection) throws -> T) throws -> T {
        // Counted once the transaction has ended (committed or not), so that a fetch that
        // reads the count before its rows never pairs a count with rows older than it.
        defer { if !isBatch { writeCount.add(1, ordering: .sequentiallyConsistent) } }
        return try writer.withLock { connection in
            guard let connection else { throw ManagedStoreError.readOnlyStore(url: url) }
            return try connection.transaction { try body(connection) }
        }
    }

    // MARK: Primary keys

    /// Reserves `count` primary keys of `entity` inside the current write transaction (a
    /// hierarchy's entities share its root's keys, as they share its table).
    func reservePrimaryKeys(
        _ count: Int, for entity: EntityDescription, on connection: SQLiteConnection
    ) throws -> ClosedRange<Int64> {
        let statement = try connection.statement(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX")
        defer { statement.reset() }
        try statement.bind(Int64(count), 1)
        try statement.bind(entity.hierarchyRoot.name, 2)
        guard try statement.step() else {
            throw SQLiteError(
                resultCode: SQLITE_CORRUPT,
                message: "Z_PRIMARYKEY has no row for entity \(entity.name)", sql: statement.sql)
        }
        let maximum = statement.int64(0)
        return (maximum - Int64(count) + 1)...maximum
    }

    /// Permanent IDs for objects of `entity`, reserved in a transaction of their own.
    func obtainPermanentIDs(_ count: Int, for entity: EntityDescription) throws -> [ManagedObjectID] {
        guard count > 0 else { return [] }
        let range = try write { connection in try reservePrimaryKeys(count, for: entity, on: connection) }
        return range.map { ManagedObjectID(entity: entity, store: persistentStore, primaryKey: $0) }
    }
}
