import Foundation

/// The store's persistent history, in four tables beside the entities' (created when a store is
/// opened with history tracking on):
///
/// - `Z_HISTORYTRANSACTION`: one row per recorded save or batch request (its number is the
///   `AUTOINCREMENT` key, so numbers are never reused after a purge);
/// - `Z_HISTORYCHANGE`: one row per change, except that a run of inserts of one entity with
///   consecutive keys (what a save of many new objects makes) is one row, `ZFIRSTKEY...ZLASTKEY`,
///   whose changes are numbered from its `Z_PK` on;
/// - `Z_HISTORYTOMBSTONE`: the values a deleted row had in its uniqueness constraints;
/// - `Z_HISTORYSTATE`: the last transaction purged, and the next change number.
enum HistoryLog {
    /// What one transaction changed, as the save (or batch request) that made it knows it.
    struct Entry {
        var author: String?
        var contextName: String?
        var inserted: [ManagedObjectID] = []
        var updated: [(id: ManagedObjectID, properties: [String])] = []
        var deleted: [(id: ManagedObjectID, tombstone: [(name: String, value: AttributeValue)])] = []

        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    // MARK: Tables

    /// Whether the database on `connection` has history tables.
    static func exists(on connection: SQLiteConnection) throws -> Bool {
        try connection.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_HISTORYTRANSACTION'") == 1
    }

    /// What a transaction records as its bundle ID (Core Data's `bundleID`): the main bundle's
    /// identifier, else, for a program without one (a command-line tool), its name.
    static let bundleID: String = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName

    /// Whether the transactions table has its bundle ID column (history written before it
    /// came has not).
    static func hasBundleColumn(on connection: SQLiteConnection) throws -> Bool {
        let statement = try connection.statement(
            "SELECT count(*) FROM pragma_table_info('Z_HISTORYTRANSACTION') WHERE name = 'ZBUNDLEID'")
        defer { statement.reset() }
        return try statement.step() && statement.int64(0) == 1
    }

    /// Adds the bundle ID column to history made before it, unless it is there (call inside a
    /// write transaction): older transactions have none.
    static func addBundleColumn(on connection: SQLiteConnection) throws {
        guard try exists(on: connection), try !hasBundleColumn(on: connection) else { return }
        try connection.execute("ALTER TABLE Z_HISTORYTRANSACTION ADD COLUMN ZBUNDLEID TEXT")
    }

    /// Makes the history tables unless they exist (call inside a write transaction).
    static func createTables(on connection: SQLiteConnection) throws {
        guard try !exists(on: connection) else { return }
        try connection.execute(
            """
            CREATE TABLE Z_HISTORYTRANSACTION (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, ZTIMESTAMP REAL NOT NULL, \
            ZAUTHOR TEXT, ZCONTEXTNAME TEXT, ZPROCESSID INTEGER NOT NULL, ZBUNDLEID TEXT)
            """)
        try connection.execute("CREATE INDEX Z_HISTORYTRANSACTION_TIMESTAMP ON Z_HISTORYTRANSACTION (ZTIMESTAMP)")
        try connection.execute(
            """
            CREATE TABLE Z_HISTORYCHANGE (Z_PK INTEGER PRIMARY KEY, ZTRANSACTION INTEGER NOT NULL, ZTYPE INTEGER NOT NULL, \
            ZENTITY TEXT NOT NULL, ZFIRSTKEY INTEGER NOT NULL, ZLASTKEY INTEGER NOT NULL, ZPROPERTIES TEXT)
            """)
        try connection.execute("CREATE INDEX Z_HISTORYCHANGE_TRANSACTION ON Z_HISTORYCHANGE (ZTRANSACTION)")
        try connection.execute(
            "CREATE TABLE Z_HISTORYTOMBSTONE (ZCHANGE INTEGER NOT NULL, ZNAME TEXT NOT NULL, ZVALUE)")
        try connection.execute("CREATE INDEX Z_HISTORYTOMBSTONE_CHANGE ON Z_HISTORYTOMBSTONE (ZCHANGE)")
        try connection.execute(
            "CREATE TABLE Z_HISTORYSTATE (ZPRUNEDTHROUGH INTEGER NOT NULL, ZNEXTCHANGE INTEGER NOT NULL)")
        try connection.execute("INSERT INTO Z_HISTORYSTATE (ZPRUNEDTHROUGH, ZNEXTCHANGE) VALUES (0, 1)")
    }

    /// The number of the last transaction recorded (0 before any, or without history tables).
    static func currentTransactionNumber(on connection: SQLiteConnection) throws -> Int64 {
        try connection.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'Z_HISTORYTRANSACTION'") ?? 0
    }

    // MARK: Recording

    /// Records `entry` as a new transaction (inside the write transaction that made the
    /// changes); returns its number.
    static func record(_ entry: Entry, on connection: SQLiteConnection) throws -> Int64 {
        let transaction = try connection.statement(
            """
            INSERT INTO Z_HISTORYTRANSACTION (ZTIMESTAMP, ZAUTHOR, ZCONTEXTNAME, ZPROCESSID, ZBUNDLEID) VALUES (?, ?, ?, ?, ?) RETURNING Z_PK
            """)
        defer { transaction.reset() }
        try transaction.bind(Date().timeIntervalSince1970, 1)
        if let author = entry.author { try transaction.bind(author, 2) } else { try transaction.bindNull(2) }
        if let name = entry.contextName { try transaction.bind(name, 3) } else { try transaction.bindNull(3) }
        try transaction.bind(Int64(getpid()), 4)
        try transaction.bind(bundleID, 5)
        guard try transaction.step() else {
            throw historyCorrupt("no transaction number was returned", sql: transaction.sql)
        }
        let number = transaction.int64(0)

        var next = try connection.scalarInt("SELECT ZNEXTCHANGE FROM Z_HISTORYSTATE") ?? 1
        let change = try connection.statement(
            """
            INSERT INTO Z_HISTORYCHANGE (Z_PK, ZTRANSACTION, ZTYPE, ZENTITY, ZFIRSTKEY, ZLASTKEY, ZPROPERTIES) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        func add(
            _ type: PersistentHistoryChange.ChangeType, _ entity: EntityDescription, _ keys: ClosedRange<Int64>,
            properties: [String]?
        ) throws {
            try change.bind(next, 1)
            try change.bind(number, 2)
            try change.bind(Int64(type.rawValue), 3)
            try change.bind(entity.name, 4)
            try change.bind(keys.lowerBound, 5)
            try change.bind(keys.upperBound, 6)
            if let properties { try change.bind(properties.joined(separator: "\n"), 7) } else { try change.bindNull(7) }
            try change.run()
            change.reset()
            next += Int64(keys.count)
        }
        for (id, tombstone) in entry.deleted {
            let changeID = next
            try add(.delete, id.entity, id.key...id.key, properties: nil)
            guard !tombstone.isEmpty else { continue }
            let value = try connection.statement(
                "INSERT INTO Z_HISTORYTOMBSTONE (ZCHANGE, ZNAME, ZVALUE) VALUES (?, ?, ?)")
            for (name, attribute) in tombstone {
                try value.bind(changeID, 1)
                try value.bind(name, 2)
                try value.bind(attribute, 3)
                try value.run()
                value.reset()
            }
        }
        for (id, properties) in entry.updated {
            try add(.update, id.entity, id.key...id.key, properties: properties)
        }
        // Inserts in runs of consecutive keys of one entity.
        var index = 0
        let inserted = entry.inserted
        while index < inserted.count {
            let first = inserted[index]
            var end = index + 1
            while end < inserted.count && inserted[end].entity === first.entity
                && inserted[end].key == inserted[end - 1].key + 1
            {
                end += 1
            }
            try add(.insert, first.entity, first.key...inserted[end - 1].key, properties: nil)
            index = end
        }
        let state = try connection.statement("UPDATE Z_HISTORYSTATE SET ZNEXTCHANGE = ?")
        defer { state.reset() }
        try state.bind(next, 1)
        try state.run()
        return number
    }

    // MARK: Purging

    /// Deletes the transactions up to and including `number`; returns how many went.
    @discardableResult
    static func delete(through number: Int64, on connection: SQLiteConnection) throws -> Int {
        let last = min(number, try currentTransactionNumber(on: connection))
        let count = try countTransactions(through: last, on: connection)
        for sql in [
            "DELETE FROM Z_HISTORYTOMBSTONE WHERE ZCHANGE IN (SELECT Z_PK FROM Z_HISTORYCHANGE WHERE ZTRANSACTION <= ?)",
            "DELETE FROM Z_HISTORYCHANGE WHERE ZTRANSACTION <= ?",
            "DELETE FROM Z_HISTORYTRANSACTION WHERE Z_PK <= ?",
            "UPDATE Z_HISTORYSTATE SET ZPRUNEDTHROUGH = max(ZPRUNEDTHROUGH, ?)",
        ] {
            let statement = try connection.statement(sql)
            try statement.bind(last, 1)
            try statement.run()
            statement.reset()
        }
        return count
    }

    /// Deletes the transactions committed before `date`; returns how many went.
    @discardableResult
    static func delete(before date: Date, on connection: SQLiteConnection) throws -> Int {
        let statement = try connection.statement("SELECT max(Z_PK) FROM Z_HISTORYTRANSACTION WHERE ZTIMESTAMP < ?")
        defer { statement.reset() }
        try statement.bind(date.timeIntervalSince1970, 1)
        guard try statement.step(), !statement.isNull(0) else { return 0 }
        let last = statement.int64(0)
        statement.reset()
        return try delete(through: last, on: connection)
    }

    private static func countTransactions(through number: Int64, on connection: SQLiteConnection) throws -> Int {
        let statement = try connection.statement("SELECT count(*) FROM Z_HISTORYTRANSACTION WHERE Z_PK <= ?")
        defer { statement.reset() }
        try statement.bind(number, 1)
        _ = try statement.step()
        return Int(statement.int64(0))
    }

    /// The last transaction purged so far (0: none).
    static func prunedThrough(on connection: SQLiteConnection) throws -> Int64 {
        try connection.scalarInt("SELECT ZPRUNEDTHROUGH FROM Z_HISTORYSTATE") ?? 0
    }

    // MARK: Reading

    /// Which transactions to read.
    enum Selection {
        case after(Int64)
        case afterDate(Date)
    }

    /// The transactions `selection` names, oldest first, with their changes unless
    /// `withChanges` is false. A store without history tables has none.
    static func transactions(
        _ selection: Selection, withChanges: Bool, on connection: SQLiteConnection,
        store: PersistentStore, model: ManagedObjectModel
    ) throws -> [PersistentHistoryTransaction] {
        guard try exists(on: connection) else { return [] }
        let statement: SQLiteStatement
        // (History written before the bundle ID column came has none.)
        let bundle = try hasBundleColumn(on: connection) ? "ZBUNDLEID" : "NULL"
        switch selection {
        case .after(let number):
            statement = try connection.statement(
                """
                SELECT Z_PK, ZTIMESTAMP, ZAUTHOR, ZCONTEXTNAME, ZPROCESSID, \(bundle) FROM Z_HISTORYTRANSACTION WHERE Z_PK > ? ORDER BY Z_PK
                """)
            try statement.bind(number, 1)
        case .afterDate(let date):
            statement = try connection.statement(
                """
                SELECT Z_PK, ZTIMESTAMP, ZAUTHOR, ZCONTEXTNAME, ZPROCESSID, \(bundle) FROM Z_HISTORYTRANSACTION WHERE ZTIMESTAMP > ? ORDER BY Z_PK
                """)
            try statement.bind(date.timeIntervalSince1970, 1)
        }
        defer { statement.reset() }
        struct Header {
            let number: Int64, timestamp: Date, author: String?, contextName: String?, processID: String
            let bundleID: String
        }
        var headers: [Header] = []
        while try statement.step() {
            headers.append(
                Header(
                    number: statement.int64(0), timestamp: Date(timeIntervalSince1970: statement.double(1)),
                    author: statement.isNull(2) ? nil : statement.text(2),
                    contextName: statement.isNull(3) ? nil : statement.text(3),
                    processID: String(statement.int64(4)), bundleID: statement.isNull(5) ? "" : statement.text(5)))
        }
        guard let first = headers.first else { return [] }
        var changes: [Int64: [PersistentHistoryChange]] = [:]
        if withChanges {
            changes = try self.changes(from: first.number, on: connection, store: store, model: model)
        }
        return headers.map { header in
            PersistentHistoryTransaction(
                transactionNumber: header.number, timestamp: header.timestamp, author: header.author,
                contextName: header.contextName, processID: header.processID, bundleID: header.bundleID,
                storeID: store.identifier, changes: withChanges ? changes[header.number] ?? [] : nil)
        }
    }

    /// The changes of the transactions numbered `first` and later, by transaction.
    private static func changes(
        from first: Int64, on connection: SQLiteConnection, store: PersistentStore,
        model: ManagedObjectModel
    ) throws -> [Int64: [PersistentHistoryChange]] {
        let statement = try connection.statement(
            """
            SELECT Z_PK, ZTRANSACTION, ZTYPE, ZENTITY, ZFIRSTKEY, ZLASTKEY, ZPROPERTIES FROM Z_HISTORYCHANGE \
            WHERE ZTRANSACTION >= ? ORDER BY Z_PK
            """)
        defer { statement.reset() }
        try statement.bind(first, 1)
        var tombstones: [Int64: [String: AttributeValue]]?
        var result: [Int64: [PersistentHistoryChange]] = [:]
        while try statement.step() {
            let changeID = statement.int64(0), transaction = statement.int64(1)
            let entityName = statement.text(3)
            guard let type = PersistentHistoryChange.ChangeType(rawValue: Int(statement.int64(2))) else {
                throw historyCorrupt("change \(changeID) has an unknown type \(statement.int64(2))", sql: statement.sql)
            }
            guard let entity = model.entitiesByName[entityName] else {
                throw ManagedStoreError.unknownEntity(entityName)
            }
            let firstKey = statement.int64(4), lastKey = statement.int64(5)
            let properties = statement.isNull(6) ? nil : Set(statement.text(6).split(separator: "\n").map(String.init))
            var tombstone: [String: AttributeValue]?
            if type == .delete {
                if tombstones == nil {
                    tombstones = try self.tombstones(from: changeID, on: connection, model: model, store: store)
                }
                tombstone = tombstones?[changeID] ?? [:]
            }
            var list = result[transaction] ?? []
            for key in firstKey...max(firstKey, lastKey) {
                list.append(
                    PersistentHistoryChange(
                        changeID: changeID + (key - firstKey),
                        changedObjectID: ManagedObjectID(entity: entity, store: store, primaryKey: key),
                        changeType: type, updatedProperties: type == .update ? properties ?? [] : nil,
                        tombstone: tombstone, transactionNumber: transaction))
            }
            result[transaction] = list
        }
        return result
    }

    /// The tombstones of changes numbered `first` and later.
    private static func tombstones(
        from first: Int64, on connection: SQLiteConnection, model: ManagedObjectModel,
        store: PersistentStore
    ) throws -> [Int64: [String: AttributeValue]] {
        let statement = try connection.statement(
            """
            SELECT t.ZCHANGE, c.ZENTITY, t.ZNAME, t.ZVALUE FROM Z_HISTORYTOMBSTONE t JOIN Z_HISTORYCHANGE c ON c.Z_PK = t.ZCHANGE \
            WHERE t.ZCHANGE >= ?
            """)
        defer { statement.reset() }
        try statement.bind(first, 1)
        var result: [Int64: [String: AttributeValue]] = [:]
        while try statement.step() {
            let name = statement.text(2)
            guard let entity = model.entitiesByName[statement.text(1)], let slot = entity.slotByName[name] else {
                continue
            }
            result[statement.int64(0), default: [:]][name] = try statement.attributeValue(
                3, type: entity.storedProperties[slot].type, destination: entity.slotDestinations[slot], store: store)
        }
        return result
    }

    private static func historyCorrupt(_ message: String, sql: String) -> SQLiteError {
        SQLiteError(resultCode: 11 /* SQLITE_CORRUPT */, message: "persistent history: \(message)", sql: sql)
    }
}
