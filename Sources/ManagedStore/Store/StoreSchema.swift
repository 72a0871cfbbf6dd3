import Foundation

/// The tables of a store, made from a model, and the checks that an existing file fits it.
///
/// Each entity has a table named after it: `Z_PK` (the primary key), `Z_OPT` (the row version
/// for optimistic locking), then a column per attribute and to-one relationship; each
/// many-to-many pair has a join table (see `JoinTable`). `Z_METADATA` holds the store's
/// identifier, its format and the model it was made by; `Z_PRIMARYKEY` the last key per entity.
enum StoreSchema {
    /// The store format this version writes and reads: 2, where `.date` columns hold seconds
    /// since 2001 (Core Data's reference date). A format-1 store (seconds since 1970) is
    /// upgraded when it is first opened for writing (``StoreFormatUpgrade``).
    static let formatVersion = 2

    struct Metadata {
        var identifier: String
        var formatVersion: Int
        var schemaLines: [String]
        /// The views ManagedStore made, by name, with their statements (read with the tables).
        var views: [String: String] = [:]

        /// Throws unless a model with `model`'s schema can use this store.
        func checkCompatible(with model: ManagedObjectModel, url: URL) throws {
            if try migration(to: model, url: url) != nil {
                throw incompatibility(with: model, url: url)
            }
        }

        /// Nil when `model` fits the store as it is; otherwise the migration that makes it fit
        /// (throwing when none can be inferred).
        func migration(to model: ManagedObjectModel, url: URL) throws -> InferredMigration? {
            guard formatVersion <= StoreSchema.formatVersion else {
                throw ManagedStoreError.unsupportedStoreFormat(
                    url: url, version: formatVersion, supported: StoreSchema.formatVersion)
            }
            guard model.schemaLines != schemaLines else { return nil }
            guard let stored = StoredEntity.parse(schemaLines) else { throw incompatibility(with: model, url: url) }
            let others = stored.map(\.name).filter { model.entityNamesOutsideConfiguration.contains($0) }
            if let configuration = model.configurationName, !others.isEmpty {
                throw ManagedStoreError.incompatibleModel(
                    url: url,
                    differences: [
                        "the store holds \(others.joined(separator: ", ")), which configuration \(configuration) does not: it is the store of another configuration, or of the whole model, and was left as it was"
                    ])
            }
            return try InferredMigration(from: stored, to: model, url: url)
        }

        /// The error for a store `model` does not fit, listing the differences.
        func incompatibility(with model: ManagedObjectModel, url: URL) -> ManagedStoreError {
            let modelLines = model.schemaLines
            let stored = Set(schemaLines), wanted = Set(modelLines)
            var differences = schemaLines.filter { !wanted.contains($0) }.map {
                "the store has \($0), the model does not"
            }
            differences += modelLines.filter { !stored.contains($0) }.map { "the model has \($0), the store does not" }
            if differences.isEmpty { differences = ["the entities are in another order"] }
            return ManagedStoreError.incompatibleModel(url: url, differences: differences)
        }
    }

    /// Reads the metadata of the database on `connection`; nil when it has no tables at all.
    /// Throws ``ManagedStoreError/notAStore(url:reason:)`` for anything else that is not a store.
    static func inspect(_ connection: SQLiteConnection, url: URL) throws -> Metadata? {
        var tables: [String] = []
        var views: [String: String] = [:]
        do {
            // The tables, and the views ManagedStore made, in one read of the schema.
            let statement = try connection.statement(
                "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view')")
            defer { statement.reset() }
            while try statement.step() {
                if statement.text(0) == "table" {
                    tables.append(statement.text(1))
                } else if statement.text(2).contains(ViewDescription.marker) {
                    views[statement.text(1)] = statement.text(2)
                }
            }
        } catch let error as SQLiteError where SQLiteError.ResultCode.notADatabase ~= error.resultCode {
            throw ManagedStoreError.notAStore(url: url, reason: "it is not an SQLite database")
        } catch let error as SQLiteError where SQLiteError.ResultCode.corrupt ~= error.resultCode {
            throw ManagedStoreError.notAStore(url: url, reason: "its SQLite data is damaged (\(error.message))")
        }
        if tables.isEmpty { return nil }
        guard tables.contains("Z_METADATA") else {
            throw ManagedStoreError.notAStore(
                url: url, reason: "it is an SQLite database of another program (it has no Z_METADATA table)")
        }
        let statement = try connection.statement("SELECT Z_UUID, Z_VERSION, Z_SCHEMA FROM Z_METADATA")
        defer { statement.reset() }
        guard try statement.step() else {
            throw ManagedStoreError.notAStore(url: url, reason: "its Z_METADATA table is empty")
        }
        return Metadata(
            identifier: statement.text(0), formatVersion: Int(statement.int64(1)),
            schemaLines: statement.text(2).split(separator: "\n").map(String.init), views: views)
    }

    /// Makes every table and index of `model`, and the metadata; returns the new identifier.
    /// Call inside a write transaction, so that the store appears whole or not at all.
    static func create(on connection: SQLiteConnection, model: ManagedObjectModel) throws -> String {
        let identifier = UUID().uuidString
        do {
            try connection.execute(
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER NOT NULL, Z_UUID TEXT NOT NULL, Z_SCHEMA TEXT NOT NULL)")
            try connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT TEXT PRIMARY KEY, Z_MAX INTEGER NOT NULL)")
            let metadata = try connection.statement(
                "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_SCHEMA) VALUES (?, ?, ?)")
            try metadata.bind(Int64(formatVersion), 1)
            try metadata.bind(identifier, 2)
            try metadata.bind(model.schemaLines.joined(separator: "\n"), 3)
            try metadata.run()
            for entity in model.entities {
                if let sql = createTableSQL(for: entity) { try connection.execute(sql) }
                if entity.superentity == nil && entity.isInHierarchy {
                    try connection.execute(
                        "CREATE INDEX \(SQLiteConnection.quote("\(entity.name)_Z_ENT")) ON \(entity.quotedTable) (Z_ENT)"
                    )
                }
                try createUniquenessIndexes(of: entity, on: connection, url: nil)
                let key = try connection.statement("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_MAX) VALUES (?, 0)")
                try key.bind(entity.name, 1)
                try key.run()
            }
            for join in model.joinTables {
                for sql in join.createSQL { try connection.execute(sql) }
            }
            try DerivedAttributeSQL.createTriggers(on: connection, model: model, recomputing: false)
            try createMissingIndexes(on: connection, model: model)
            try synchronizeViews(on: connection, model: model)
        }
        return identifier
    }

    /// The table of `entity`, or of its hierarchy when it is a root with sub-entities (a
    /// column per property of any of them, and `Z_ENT`); nil for a sub-entity, whose rows are in
    /// its root's table.
    static func createTableSQL(for entity: EntityDescription) -> String? {
        guard entity.superentity == nil else { return nil }
        var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_OPT INTEGER NOT NULL"]
        for attribute in entity.tableColumns {
            columns.append(columnSQL(attribute))
        }
        if entity.isInHierarchy { columns.append("Z_ENT TEXT NOT NULL") }
        return "CREATE TABLE \(entity.quotedTable) (\(columns.joined(separator: ", ")))"
    }

    /// A column's definition: a to-one relationship's key may be NULL whatever the
    /// relationship's optionality, which a save validates (as in Core Data).
    static func columnSQL(_ attribute: AttributeDescription) -> String {
        "\(SQLiteConnection.quote(attribute.name)) \(attribute.type.sqlType)\(attribute.isOptional || attribute.columnIsNullable ? "" : " NOT NULL")"
    }

    /// Makes the unique indexes that enforce `entity`'s uniqueness constraints, unless they
    /// exist. During a migration (`url` given), stored rows that break a constraint refuse it.
    static func createUniquenessIndexes(of entity: EntityDescription, on connection: SQLiteConnection, url: URL?) throws
    {
        // A sub-entity's own constraints hold among its rows (and its sub-entities'); those it
        // inherits are its superentity's indexes.
        let inherited = entity.superentity?.uniquenessConstraints.count ?? 0
        let rows =
            entity.superentity == nil
            ? "" : entity.entityCondition(includingSubentities: true).map { " WHERE \($0)" } ?? ""
        for (index, constraint) in entity.uniquenessConstraints.enumerated() where index >= inherited {
            let columns = constraint.map(SQLiteConnection.quote).joined(separator: ", ")
            let name = SQLiteConnection.quote("\(entity.name)_unique_\(index)")
            do {
                try connection.execute(
                    "CREATE UNIQUE INDEX IF NOT EXISTS \(name) ON \(entity.quotedTable) (\(columns))\(rows)")
            } catch let error as SQLiteError where SQLiteError.ResultCode.constraint ~= error.resultCode && url != nil {
                throw ManagedStoreError.cannotInferMapping(
                    url: url!, entity: entity.name, property: constraint.joined(separator: ", "),
                    reason: "the stored rows break the uniqueness constraint on (\(constraint.joined(separator: ", ")))"
                )
            }
        }
    }

    /// Drops every index ManagedStore made on `table` (uniqueness constraints' and declared ones).
    static func dropAllIndexes(onTable table: String, on connection: SQLiteConnection) throws {
        let statement = try connection.statement(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
        try statement.bind(table, 1)
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        statement.reset()
        for name in names { try connection.execute("DROP INDEX \(SQLiteConnection.quote(name))") }
    }

    /// Indexes are not part of a store's compatibility: those the model adds are made.
    static func createMissingIndexes(on connection: SQLiteConnection, model: ManagedObjectModel) throws {
        for entity in model.entities {
            for names in entity.indexes {
                let columns = names.map(SQLiteConnection.quote).joined(separator: ", ")
                try connection.execute(
                    "CREATE INDEX IF NOT EXISTS \(indexName(entity, names)) ON \(entity.quotedTable) (\(columns))")
            }
        }
    }

    /// Drops the indexes `entity` declares (its uniqueness constraints' indexes stay).
    static func dropIndexes(of entity: EntityDescription, on connection: SQLiteConnection) throws {
        for names in entity.indexes {
            try connection.execute("DROP INDEX IF EXISTS \(indexName(entity, names))")
        }
    }

    private static func indexName(_ entity: EntityDescription, _ names: [String]) -> String {
        SQLiteConnection.quote("\(entity.name)_index_\(names.joined(separator: "_"))")
    }

    // MARK: Views

    /// How the store's views differ from the model's (see ``ViewDescription``), in words;
    /// empty when they match. Views ManagedStore did not make are not compared.
    static func viewDifferences(on connection: SQLiteConnection, model: ManagedObjectModel) throws -> [String] {
        viewDifferences(stored: try managedViews(on: connection), model: model)
    }

    /// How `stored` (the views ManagedStore made, by name) differ from the model's.
    static func viewDifferences(stored: [String: String], model: ManagedObjectModel) -> [String] {
        var differences: [String] = []
        for view in model.views {
            switch stored[view.name] {
            case nil: differences.append("view \(view.name) is missing")
            case let sql? where sql != view.createSQL: differences.append("view \(view.name) has another definition")
            default: break
            }
        }
        let wanted = Set(model.views.map(\.name))
        differences += stored.keys.filter { !wanted.contains($0) }.sorted().map { "view \($0) is not in the model" }
        return differences
    }

    /// Makes the store's views those of the model: drops the ones ManagedStore made that
    /// differ or that the model lacks, and makes the missing ones. Call inside a write
    /// transaction.
    static func synchronizeViews(on connection: SQLiteConnection, model: ManagedObjectModel) throws {
        let stored = try managedViews(on: connection)
        let wanted = Dictionary(uniqueKeysWithValues: model.views.map { ($0.name, $0.createSQL) })
        for (name, sql) in stored where wanted[name] != sql {
            try connection.execute("DROP VIEW \(SQLiteConnection.quote(name))")
        }
        for view in model.views where stored[view.name] != view.createSQL {
            try connection.execute(view.createSQL)
        }
    }

    /// Drops every view ManagedStore made (a migration does, before it changes a table).
    static func dropManagedViews(on connection: SQLiteConnection) throws {
        for name in try managedViews(on: connection).keys {
            try connection.execute("DROP VIEW \(SQLiteConnection.quote(name))")
        }
    }

    /// The views ManagedStore made, by name, with their statements.
    private static func managedViews(on connection: SQLiteConnection) throws -> [String: String] {
        let statement = try connection.statement("SELECT name, sql FROM sqlite_master WHERE type = 'view'")
        defer { statement.reset() }
        var views: [String: String] = [:]
        while try statement.step() {
            let sql = statement.text(1)
            if sql.contains(ViewDescription.marker) { views[statement.text(0)] = sql }
        }
        return views
    }

    /// Puts the database in WAL mode (once; a store stays in it).
    ///
    /// Changing the mode takes an exclusive lock while holding a shared one, and SQLite answers
    /// `SQLITE_BUSY` at once, without its busy handler, when another connection is changing it
    /// too (waiting could deadlock): processes creating one store at the same instant meet
    /// there. So the change is tried again, every 10 ms, for as long as the connection's busy
    /// timeout allows; after that the error stands.
    static func enableWAL(on connection: SQLiteConnection) throws {
        let deadline = Date().addingTimeInterval(connection.busyTimeout)
        while true {
            do {
                if try connection.scalarText("PRAGMA journal_mode")?.lowercased() != "wal" {
                    _ = try connection.scalarText("PRAGMA journal_mode = WAL")
                }
                return
            } catch let error as SQLiteError where SQLiteError.ResultCode.busy ~= error.resultCode {
                guard Date() < deadline else { throw error }
                usleep(10_000)
            }
        }
    }
}
