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
    private let historySeen = Atomic<Bool>(false)
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

    private init(
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
            let store = PersistentStore(identifier: identifier, url: url, isReadOnly: description.isReadOnly)
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
            let store = PersistentStore(identifier: metadata.identifier, url: url, isReadOnly: true)
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
            isReadOnly: storeHasHistory && !description.persistentHistoryTracking)
        return SQLiteStore(
            persistentStore: store, model: model, writer: connection, readers: [], description: description,
            history: HistoryMode(description, storeHasHistory: storeHasHistory))
    }

    // MARK: Persistent history

    /// Throws when the store has recorded history but this coordinator opened it without
    /// tracking: as in Core Data, it is read-only then, so that no change goes unrecorded.
    func checkWritableHistory() throws {
        if case .requiredButOff = history { throw ManagedStoreError.persistentHistoryTrackingRequired(url: url) }
    }

    /// Records a transaction's changes in the history (inside its write transaction) and
    /// purges what is older than the retention.
    func recordHistory(_ entry: HistoryLog.Entry, on connection: SQLiteConnection) throws {
        guard case .tracking(let retentionDays) = history, !entry.isEmpty else { return }
        // The cutoff is taken before the transaction is stamped, so a retention of 0 days
        // keeps the transaction just recorded.
        let cutoff = retentionDays.map { Date().addingTimeInterval(-Double($0) * 86_400) }
        _ = try HistoryLog.record(entry, on: connection)
        if let cutoff { try HistoryLog.delete(before: cutoff, on: connection) }
    }

    /// The token after the last transaction recorded so far.
    func currentHistoryToken() throws -> PersistentHistoryToken {
        try read { connection in
            var exists = historySeen.load(ordering: .relaxed)
            if !exists {
                exists = try HistoryLog.exists(on: connection)
                if exists { historySeen.store(true, ordering: .relaxed) }
            }
            let number = exists ? try HistoryLog.currentTransactionNumber(on: connection) : 0
            return PersistentHistoryToken(transactionNumber: number, storeIdentifier: persistentStore.identifier)
        }
    }

    /// Runs a history request: a fetch on a read connection, a purge in a write transaction.
    func execute(
        _ request: PersistentHistoryChangeRequest, in generation: QueryGeneration? = nil
    ) throws -> PersistentHistoryResult {
        if let token = request.token, token.storeIdentifier != persistentStore.identifier {
            throw ManagedStoreError.foreignHistoryToken(token: token, storeIdentifier: persistentStore.identifier)
        }
        if request.isDeletion {
            let count = try write { connection -> Int in
                guard try HistoryLog.exists(on: connection) else { return 0 }
                switch request.operation {
                case .deleteThroughToken(let token):
                    return try HistoryLog.delete(through: token?.transactionNumber ?? Int64.max, on: connection)
                case .deleteBeforeDate(let date):
                    return try HistoryLog.delete(before: date, on: connection)
                case .fetchAfterToken, .fetchAfterDate, .fetchMatching:
                    preconditionFailure("ManagedStore: a fetch request taken for a purge")
                }
            }
            return request.resultType == .count ? .count(count) : .status(true)
        }
        var matching:
            (
                PersistentHistoryFetchRequest<PersistentHistoryTransaction>?,
                PersistentHistoryFetchRequest<PersistentHistoryChange>?
            )?
        if case .fetchMatching(let transactions, let changes) = request.operation { matching = (transactions, changes) }
        let withChanges =
            (request.resultType != .transactionsOnly && request.resultType != .count
                && request.resultType != .statusOnly)
            || matching?.1 != nil
        var transactions = try read(in: generation) { connection -> [PersistentHistoryTransaction] in
            let selection: HistoryLog.Selection
            switch request.operation {
            case .fetchAfterToken(let token):
                let number = token?.transactionNumber ?? 0
                if try HistoryLog.exists(on: connection) {
                    let pruned = try HistoryLog.prunedThrough(on: connection)
                    if number < pruned, let token {
                        throw ManagedStoreError.persistentHistoryTokenExpired(token: token, oldestKept: pruned + 1)
                    }
                }
                selection = .after(number)
            case .fetchAfterDate(let date):
                selection = .afterDate(date)
            case .fetchMatching:
                selection = .after(0)
            case .deleteThroughToken, .deleteBeforeDate:
                preconditionFailure("ManagedStore: a purge taken for a fetch")
            }
            return try HistoryLog.transactions(
                selection, withChanges: withChanges, on: connection, store: persistentStore, model: model)
        }
        if let (transactionFetch, changeFetch) = matching {
            transactions = try Self.matching(transactions, transactionFetch, changeFetch)
        }
        switch request.resultType {
        case .statusOnly: return .status(true)
        case .count: return .count(transactions.count)
        case .transactionsOnly, .transactionsAndChanges: return .transactions(transactions)
        case .changesOnly: return .changes(transactions.flatMap { $0.changes ?? [] })
        case .objectIDs:
            var seen = Set<ManagedObjectID>(), ids: [ManagedObjectID] = []
            for change in transactions.flatMap({ $0.changes ?? [] }) where seen.insert(change.changedObjectID).inserted
            {
                ids.append(change.changedObjectID)
            }
            return .objectIDs(ids)
        }
    }

    /// The transactions the fetch requests select (see ``PersistentHistoryFetchRequest``).
    private static func matching(
        _ transactions: [PersistentHistoryTransaction],
        _ transactionFetch: PersistentHistoryFetchRequest<PersistentHistoryTransaction>?,
        _ changeFetch: PersistentHistoryFetchRequest<PersistentHistoryChange>?
    ) throws -> [PersistentHistoryTransaction] {
        var result: [PersistentHistoryTransaction] = []
        let limit = transactionFetch?.fetchLimit ?? changeFetch?.fetchLimit ?? 0
        for transaction in transactions {
            if let predicate = transactionFetch?.predicate, try !predicate.evaluate(transaction) { continue }
            if let changeFetch {
                var kept: [PersistentHistoryChange] = []
                for change in transaction.changes ?? [] where try changeFetch.predicate?.evaluate(change) ?? true {
                    kept.append(change)
                }
                if kept.isEmpty { continue }
                result.append(transaction.with(changes: kept))
            } else {
                result.append(transaction)
            }
            if limit > 0 && result.count == limit { break }
        }
        return result
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
        if let generation { return try generation.read(body) }
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
    func makeGeneration() throws -> QueryGeneration {
        if inMemory {
            throw ManagedStoreError.queryGenerationUnavailable(
                reason: "an in-memory store has one connection, which cannot hold a read transaction beside its writes")
        }
        return try QueryGeneration(connection: openReader(), store: persistentStore)
    }

    private func openReader() throws -> SQLiteConnection {
        try Self.openReader(path: readerFilename.name, uri: readerFilename.uri, timeout: timeout)
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

    /// A read-only connection. Its pages are read into SQLite's page cache (2 MB), never memory
    /// mapped: a map made a long read (a whole history streamed as JSON lines) count every page
    /// of the store in the process's memory, where the cache keeps it flat; a lookup costs
    /// about 1.4 µs more for it (scripts/bench: 13.4 µs, against 12.0 mapped).
    private static func openReader(path: String, uri: Bool, timeout: TimeInterval) throws -> SQLiteConnection {
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

    // MARK: Reading rows

    /// The rows a query selects.
    func fetch(_ query: StoreQuery, in generation: QueryGeneration? = nil) throws -> [RowSnapshot] {
        try read(in: generation) { connection in
            let statement = try connection.statement(query.selectSQL())
            defer { statement.reset() }
            for (index, argument) in query.arguments.enumerated() {
                try statement.bind(argument, Int32(index + 1))
            }
            var rows: [RowSnapshot] = []
            while try statement.step() {
                rows.append(row(from: statement, entity: query.entity))
            }
            return rows
        }
    }

    /// The values of the attributes in `slots` of each row a query selects.
    func fetchValues(
        _ query: StoreQuery, slots: [Int], in generation: QueryGeneration? = nil
    ) throws -> [[AttributeValue]] {
        try read(in: generation) { connection in
            let statement = try connection.statement(query.selectSQL(slots: slots))
            defer { statement.reset() }
            for (index, argument) in query.arguments.enumerated() {
                try statement.bind(argument, Int32(index + 1))
            }
            let entity = query.entity
            var rows: [[AttributeValue]] = []
            while try statement.step() {
                rows.append(
                    slots.enumerated().map { column, slot in
                        statement.attributeValue(
                            Int32(column), type: entity.storedProperties[slot].type,
                            destination: entity.slotDestinations[slot], store: persistentStore)
                    })
            }
            return rows
        }
    }

    /// How many rows a query selects, within its limit and offset.
    func count(_ query: StoreQuery, in generation: QueryGeneration? = nil) throws -> Int {
        try read(in: generation) { connection in
            let statement = try connection.statement(query.countSQL())
            defer { statement.reset() }
            for (index, argument) in query.arguments.enumerated() {
                try statement.bind(argument, Int32(index + 1))
            }
            guard try statement.step() else { return 0 }
            return Int(statement.int64(0))
        }
    }

    /// The row of a permanent object ID, or nil when there is none.
    func row(for id: ManagedObjectID, in generation: QueryGeneration? = nil) throws -> RowSnapshot? {
        guard id.persistentStore === persistentStore else { return nil }
        return try read(in: generation) { connection in try row(for: id, on: connection) }
    }

    func row(for id: ManagedObjectID, on connection: SQLiteConnection) throws -> RowSnapshot? {
        let entity = id.entity
        let statement = try connection.statement(entity.selectByKeySQL)
        defer { statement.reset() }
        try statement.bind(id.key, 1)
        guard try statement.step() else { return nil }
        return row(from: statement, entity: entity)
    }

    func row(from statement: SQLiteStatement, entity: EntityDescription) -> RowSnapshot {
        var values: [AttributeValue] = []
        values.reserveCapacity(entity.storedProperties.count)
        for (index, attribute) in entity.storedProperties.enumerated() {
            values.append(
                statement.attributeValue(
                    Int32(index + 2), type: attribute.type,
                    destination: entity.slotDestinations[index], store: persistentStore))
        }
        return RowSnapshot(
            id: ManagedObjectID(entity: entity, store: persistentStore, primaryKey: statement.int64(0)),
            version: statement.int64(1), values: values)
    }

    // MARK: Primary keys

    /// Reserves `count` primary keys of `entity` inside the current write transaction.
    func reservePrimaryKeys(
        _ count: Int, for entity: EntityDescription, on connection: SQLiteConnection
    ) throws -> ClosedRange<Int64> {
        let statement = try connection.statement(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX")
        defer { statement.reset() }
        try statement.bind(Int64(count), 1)
        try statement.bind(entity.name, 2)
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
