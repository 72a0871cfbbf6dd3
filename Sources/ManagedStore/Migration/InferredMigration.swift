import Foundation

/// A lightweight migration: the changes between the model a store was made by (its recorded
/// entities) and the current model, inferred from names and renaming identifiers as Core Data
/// infers a mapping model, and applied in one SQLite transaction.
///
/// Inferable: adding or removing an entity, an attribute that is optional or has a default, a
/// to-one, to-many or many-to-many relationship that is optional, an index or a uniqueness
/// constraint;
/// renaming an entity, attribute or relationship (`renamingIdentifier` names the old one);
/// making an attribute optional, or mandatory with a default (in a staged migration, also without
/// one: the rows are judged after the stage's `willMigrateHandler`). Anything else (a type changed, a
/// new mandatory attribute without a default) is refused before anything is written, naming
/// the entity and the property.
///
/// Atomic: every statement runs in the one transaction that also records the new model, so a
/// process killed at any moment leaves the old store, whole and readable by the old model, or
/// the migrated one.
struct InferredMigration {
    /// What happens to one table.
    enum TableChange {
        /// A new entity: a new table.
        case create(EntityDescription)
        /// An entity the model no longer has: its table goes.
        case drop(String)
        /// An entity of both: from its stored form to the model's.
        case change(from: StoredEntity, to: EntityDescription, sources: [String?])
        /// New columns of a hierarchy's table, in place; with `entity`, the table becomes that
        /// entity's hierarchy's (`Z_ENT`, every stored row the entity's).
        case addColumns(table: String, columns: [AttributeDescription], entity: EntityDescription?)
    }

    /// What happens to one many-to-many relationship's join table.
    enum JoinChange {
        case create(JoinTable)
        case drop(name: String)
        /// Renamed (an entity or relationship of the pair was); `swapped` when the pair's
        /// primary side changed with it, so that the columns trade places.
        case rename(from: String, to: JoinTable, swapped: Bool)
    }

    let changes: [TableChange]
    let joinChanges: [JoinChange]
    /// What changes, in words, for logs and errors.
    let summary: [String]
    /// `.date` attributes that become `.day`: their stored values must all be midnights (UTC).
    let dayChecks: [(table: String, column: String, entity: String, property: String)]
    /// Columns whose values shift between a `.date` (seconds since 2001) and a `.day` (seconds
    /// since 1970): the entity and property after the migration, their names before (for the
    /// history's tombstones), and the seconds to add.
    let dayConversions: [(entity: String, property: String, oldEntity: String, oldColumn: String, shift: Double)]
    /// Optional properties that become mandatory without a default, in a staged migration:
    /// judged on the rows, after the stage's `willMigrateHandler` ran (it may have filled them).
    let nullChecks: [(table: String, column: String, entity: String, property: String)]

    /// Infers the migration from `stored` to `model`; throws
    /// ``ManagedStoreError/cannotInferMapping(url:entity:property:reason:)`` for a change that
    /// cannot be inferred.
    ///
    /// `judgingRows`: a property made mandatory without a default is judged on the stored rows
    /// when the migration is applied, rather than refused here (a staged migration, whose
    /// `willMigrateHandler` may fill the nils, as Apple's `NSCustomMigrationStage` describes).
    init(from stored: [StoredEntity], to model: ManagedObjectModel, url: URL, judgingRows: Bool = false) throws {
        var changes: [TableChange] = []
        var summary: [String] = []
        var dayChecks: [(table: String, column: String, entity: String, property: String)] = []
        var dayConversions: [(entity: String, property: String, oldEntity: String, oldColumn: String, shift: Double)] =
            []
        var nullChecks: [(table: String, column: String, entity: String, property: String)] = []
        // A hierarchy shares one table: only additions to it are inferred (see hierarchyChanges).
        let hierarchies = try Self.hierarchyChanges(from: stored, to: model, url: url, summary: &summary)
        changes += hierarchies.changes
        var matched = hierarchies.storedNames
        for entity in model.entities where !hierarchies.modelNames.contains(entity.name) {
            // A renaming identifier names the old entity, and wins over a same-named one (a swap).
            let old =
                entity.renamingIdentifier.flatMap { id in stored.first { $0.name == id } }
                ?? stored.first { $0.name == entity.name }
            guard let old else {
                changes.append(.create(entity))
                summary.append("adds entity \(entity.name)")
                continue
            }
            matched.insert(old.name)
            if old.name != entity.name { summary.append("renames entity \(old.name) to \(entity.name)") }
            var sources: [String?] = []
            var usedColumns = Set<String>()
            for (slot, property) in entity.storedProperties.enumerated() {
                // A position column follows its to-one's renaming (Z_FOK_book to Z_FOK_volume).
                let position = property.name.hasPrefix("Z_FOK_") ? String(property.name.dropFirst(6)) : nil
                let renaming =
                    entity.isAttributeSlot(slot)
                    ? entity.storedProperties[slot].renamingIdentifier
                    : position.map { entity.relationshipsByName[$0]?.renamingIdentifier.map { "Z_FOK_\($0)" } }
                        ?? entity.relationshipsByName[property.name]?.renamingIdentifier
                // The renaming identifier wins over a same-named column (a swap of two names).
                let column = (renaming.flatMap { old.column(named: $0) } ?? old.column(named: property.name))
                    .flatMap { usedColumns.contains($0.name) ? nil : $0 }
                let relationship = entity.relationshipsByName[property.name]
                if relationship != nil,
                    old.otherLines.contains(where: {
                        $0.hasPrefix("relationship \(old.name).\(column?.name ?? property.name) ->> ")
                    })
                {
                    throw ManagedStoreError.cannotInferMapping(
                        url: url, entity: entity.name, property: property.name,
                        reason: "it changed from to-many to to-one, which would lose its links")
                }
                let kind = relationship.map { "-> \($0.destinationEntityName)" } ?? property.type.rawValue
                let isOptional = relationship?.isOptional ?? property.isOptional
                guard let column else {
                    if !isOptional && property.defaultValue.isNull {
                        throw ManagedStoreError.cannotInferMapping(
                            url: url, entity: entity.name, property: property.name,
                            reason:
                                "it is new, not optional and has no default, so the stored rows would have no value for it"
                        )
                    }
                    sources.append(nil)
                    summary.append("adds \(entity.name).\(property.name)")
                    continue
                }
                usedColumns.insert(column.name)
                if column.kind == AttributeType.date.rawValue && kind == AttributeType.day.rawValue {
                    // A date at 00:00 UTC is a day (checked on the rows), counted from 1970.
                    dayChecks.append((old.name, column.name, entity.name, property.name))
                    dayConversions.append(
                        (entity.name, property.name, old.name, column.name, StoreFormatUpgrade.offset))
                    summary.append("makes \(entity.name).\(property.name) a calendar day")
                } else if column.kind == AttributeType.day.rawValue && kind == AttributeType.date.rawValue {
                    summary.append("makes \(entity.name).\(property.name) a date")
                    dayConversions.append(
                        (entity.name, property.name, old.name, column.name, -StoreFormatUpgrade.offset))
                } else if column.kind != kind, !Self.kindsMatchAcrossRename(column.kind, kind, model: model) {
                    throw ManagedStoreError.cannotInferMapping(
                        url: url, entity: entity.name, property: property.name,
                        reason:
                            "its type changed from \(column.kind) to \(kind), which a lightweight migration cannot convert"
                    )
                }
                if column.isOptional && !isOptional && (relationship != nil || property.defaultValue.isNull)
                    && judgingRows
                {
                    nullChecks.append((old.name, column.name, entity.name, property.name))
                } else if column.isOptional && !isOptional && (relationship != nil || property.defaultValue.isNull) {
                    throw ManagedStoreError.cannotInferMapping(
                        url: url, entity: entity.name, property: property.name,
                        reason: "it became mandatory without a default, so stored rows without a value would break it")
                }
                if column.name != property.name {
                    summary.append("renames \(entity.name).\(column.name) to \(property.name)")
                }
                if column.isOptional != isOptional {
                    summary.append("makes \(entity.name).\(property.name) \(isOptional ? "optional" : "mandatory")")
                }
                sources.append(column.name)
            }
            for relationship in entity.relationships where relationship.isToMany {
                let name = relationship.renamingIdentifier ?? relationship.name
                if let column = old.column(named: name) ?? old.column(named: relationship.name),
                    column.kind.hasPrefix("->"), !usedColumns.contains(column.name)
                {
                    throw ManagedStoreError.cannotInferMapping(
                        url: url, entity: entity.name, property: relationship.name,
                        reason: "it changed from to-one to to-many, which would lose its links")
                }
            }
            for column in old.columns where !usedColumns.contains(column.name) {
                summary.append("removes \(entity.name).\(column.name)")
            }
            if old.uniquenessConstraints
                != entity.uniquenessConstraints.map({ names in names.map { Self.sourceName($0, in: entity, old: old) } }
                )
            {
                summary.append("changes the uniqueness constraints of \(entity.name)")
            }
            changes.append(.change(from: old, to: entity, sources: sources))
        }
        for old in stored where !matched.contains(old.name) {
            changes.append(.drop(old.name))
            summary.append("removes entity \(old.name)")
        }
        self.changes = changes
        self.joinChanges = Self.joinChanges(from: stored, to: model, summary: &summary)
        self.summary = summary
        self.dayChecks = dayChecks
        self.dayConversions = dayConversions
        self.nullChecks = nullChecks
    }

    /// The join tables to make, rename and drop: a many-to-many relationship of the model
    /// keeps the table of its stored form (found by its and its entities' renaming identifiers).
    private static func joinChanges(
        from stored: [StoredEntity], to model: ManagedObjectModel, summary: inout [String]
    ) -> [JoinChange] {
        var storedTables: [String: JoinTable] = [:]
        for entity in stored {
            for join in entity.joinTables where join.isPrimary { storedTables[join.name] = join }
        }
        func oldName(_ entity: EntityDescription) -> String {
            entity.renamingIdentifier.flatMap { id in stored.contains { $0.name == id } ? id : nil } ?? entity.name
        }
        var changes: [JoinChange] = []
        var kept = Set<String>()
        for entity in model.entities {
            for relationship in entity.resolvedRelationships {
                guard let join = relationship.join, join.isPrimary, let inverse = relationship.inverse else { continue }
                if storedTables[join.name] != nil {
                    kept.insert(join.name)
                    continue
                }
                let old = JoinTable(
                    entity: oldName(entity),
                    relationship: relationship.description.renamingIdentifier ?? relationship.name,
                    inverseEntity: oldName(relationship.destination),
                    inverse: inverse.renamingIdentifier ?? inverse.name)
                let oldPrimary =
                    old.isPrimary
                    ? old
                    : JoinTable(
                        entity: oldName(relationship.destination),
                        relationship: inverse.renamingIdentifier ?? inverse.name,
                        inverseEntity: oldName(entity),
                        inverse: relationship.description.renamingIdentifier ?? relationship.name)
                if storedTables[oldPrimary.name] != nil, !kept.contains(oldPrimary.name) {
                    kept.insert(oldPrimary.name)
                    changes.append(.rename(from: oldPrimary.name, to: join, swapped: !old.isPrimary))
                    summary.append("renames the links of \(entity.name).\(relationship.name)")
                } else {
                    changes.append(.create(join))
                    summary.append("adds many-to-many \(entity.name).\(relationship.name)")
                }
            }
        }
        for name in storedTables.keys.sorted() where !kept.contains(name) {
            changes.insert(.drop(name: name), at: 0)
            summary.append("removes the many-to-many links of \(name)")
        }
        return changes
    }

    /// A relationship's destination may itself have been renamed.
    private static func kindsMatchAcrossRename(_ stored: String, _ wanted: String, model: ManagedObjectModel) -> Bool {
        guard stored.hasPrefix("-> "), wanted.hasPrefix("-> "),
            let destination = model.entitiesByName[String(wanted.dropFirst(3))]
        else { return false }
        return destination.renamingIdentifier == String(stored.dropFirst(3))
    }

    private static func sourceName(_ name: String, in entity: EntityDescription, old: StoredEntity) -> String {
        if old.column(named: name) != nil { return name }
        return entity.attribute(named: name)?.renamingIdentifier ?? name
    }

    /// Runs the migration on `connection`, inside the caller's write transaction, and records
    /// `model` as the store's model.
    func apply(
        on connection: SQLiteConnection, model: ManagedObjectModel, url: URL, identifier: String? = nil
    ) throws {
        for check in dayChecks {
            let column = SQLiteConnection.quote(check.column)
            let times =
                try connection.scalarInt(
                    "SELECT COUNT(*) FROM \(SQLiteConnection.quote(check.table)) WHERE \(column) IS NOT NULL "
                        + "AND (\(column) != CAST(\(column) AS INTEGER) OR CAST(\(column) AS INTEGER) % 86400 != 0)")
                ?? 0
            if times > 0 {
                throw ManagedStoreError.cannotInferMapping(
                    url: url, entity: check.entity, property: check.property,
                    reason:
                        "\(times) stored value\(times == 1 ? " has" : "s have") a time of day, which a calendar day cannot hold"
                )
            }
        }
        // A property made mandatory: every row has a value by now, or the first without one
        // (by primary key) fails the migration, naming its object, and nothing is changed.
        for check in nullChecks {
            let column = SQLiteConnection.quote(check.column)
            if let key = try connection.scalarInt(
                "SELECT Z_PK FROM \(SQLiteConnection.quote(check.table)) WHERE \(column) IS NULL ORDER BY Z_PK LIMIT 1")
            {
                let object = identifier.map { "x-managedstore://\($0)/\(check.table)/p\(key)" } ?? "p\(key)"
                throw ManagedStoreError.cannotInferMapping(
                    url: url, entity: check.entity, property: check.property,
                    reason:
                        "it became mandatory, but the stored object \(object) has no value for it (after the stage's willMigrateHandler, if any)"
                )
            }
        }
        // A view stands on the tables' columns: SQLite refuses to rename a table a view names
        // in a way it cannot follow. The views are made again from the model below.
        try StoreSchema.dropManagedViews(on: connection)
        // So are the derived attributes' triggers, made again (and every value computed) below.
        try DerivedAttributeSQL.dropTriggers(on: connection)
        for change in changes {
            switch change {
            case .drop(let name):
                try connection.execute("DROP TABLE IF EXISTS \(SQLiteConnection.quote(name))")
                try deleteKeyRow(name, on: connection)
            case .create(let entity):
                if let sql = StoreSchema.createTableSQL(for: entity) { try connection.execute(sql) }
                let key = try connection.statement("INSERT OR REPLACE INTO Z_PRIMARYKEY (Z_ENT, Z_MAX) VALUES (?, 0)")
                try key.bind(entity.name, 1)
                try key.run()
            case .change(let old, let entity, let sources):
                try migrate(old, to: entity, sources: sources, on: connection)
            case .addColumns(let table, let columns, let entity):
                try addColumns(columns, to: table, entity: entity, on: connection)
            }
        }
        for change in joinChanges {
            switch change {
            case .drop(let name):
                try connection.execute("DROP TABLE IF EXISTS \(SQLiteConnection.quote(name))")
            case .create(let join):
                for sql in join.createSQL { try connection.execute(sql) }
            case .rename(let name, let join, let swapped):
                // Made anew (its index is named after it) and filled from the old one.
                for sql in join.createSQL { try connection.execute(sql) }
                let columns = swapped ? "Z_MEMBER, Z_OWNER" : "Z_OWNER, Z_MEMBER"
                try connection.execute(
                    "INSERT INTO \(join.quotedName) (Z_OWNER, Z_MEMBER) SELECT \(columns) FROM \(SQLiteConnection.quote(name))"
                )
                try connection.execute("DROP TABLE \(SQLiteConnection.quote(name))")
            }
        }
        try convertDays(on: connection)
        for entity in model.entities {
            try StoreSchema.createUniquenessIndexes(of: entity, on: connection, url: url)
        }
        try StoreSchema.createMissingIndexes(on: connection, model: model)
        try DerivedAttributeSQL.createTriggers(on: connection, model: model, recomputing: true)
        try StoreSchema.synchronizeViews(on: connection, model: model)
        let statement = try connection.statement("UPDATE Z_METADATA SET Z_SCHEMA = ?")
        try statement.bind(model.schemaLines.joined(separator: "\n"), 1)
        try statement.run()
    }

    private func deleteKeyRow(_ name: String, on connection: SQLiteConnection) throws {
        let statement = try connection.statement("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        try statement.bind(name, 1)
        try statement.run()
    }

    /// Brings one table from its stored form to the entity's. Columns only added (nullable, or
    /// with a default) are added in place, whatever the table's size; any other change copies
    /// the rows into a new table of the model's form.
    private func migrate(
        _ old: StoredEntity, to entity: EntityDescription, sources: [String?], on connection: SQLiteConnection
    ) throws {
        let table = entity.quotedTable
        let kept = sources.compactMap { $0 }
        let onlyAdded =
            kept.count == old.columns.count
            && zip(entity.storedProperties, sources).allSatisfy { property, source in
                guard let source, let column = old.column(named: source) else { return true }
                return source == property.name
                    && column.isOptional
                        == (entity.relationshipsByName[property.name]?.isOptional ?? property.isOptional)
            }
        let sameConstraints = old.uniquenessConstraints == entity.uniquenessConstraints
        if old.name != entity.name || !onlyAdded || !sameConstraints {
            // The indexes are named after the entity and made again from the model afterwards.
            try StoreSchema.dropAllIndexes(onTable: old.name, on: connection)
        }
        if old.name != entity.name {
            try connection.execute("ALTER TABLE \(SQLiteConnection.quote(old.name)) RENAME TO \(table)")
            let statement = try connection.statement("UPDATE Z_PRIMARYKEY SET Z_ENT = ? WHERE Z_ENT = ?")
            try statement.bind(entity.name, 1)
            try statement.bind(old.name, 2)
            try statement.run()
        }
        if onlyAdded {
            for (property, source) in zip(entity.storedProperties, sources) where source == nil {
                var sql = "ALTER TABLE \(table) ADD COLUMN \(StoreSchema.columnSQL(property))"
                if !property.defaultValue.isNull {
                    sql += " DEFAULT \(Self.literal(property.defaultValue.sqliteValue))"
                }
                try connection.execute(sql)
            }
            return
        }
        let temporary = SQLiteConnection.quote("Z_MIGRATING_\(entity.name)")
        try connection.execute(
            (StoreSchema.createTableSQL(for: entity) ?? "").replacingOccurrences(
                of: "CREATE TABLE \(table)", with: "CREATE TABLE \(temporary)"))
        var selected = ["Z_PK", "Z_OPT"]
        var arguments: [SQLiteValue] = []
        for (property, source) in zip(entity.storedProperties, sources) {
            switch (source, property.defaultValue.isNull) {
            case (let source?, true):
                selected.append(SQLiteConnection.quote(source))
            case (let source?, false):
                selected.append("COALESCE(\(SQLiteConnection.quote(source)), ?)")
                arguments.append(property.defaultValue.sqliteValue)
            case (nil, true):
                selected.append("NULL")
            case (nil, false):
                selected.append("?")
                arguments.append(property.defaultValue.sqliteValue)
            }
        }
        let statement = try connection.statement(
            "INSERT INTO \(temporary) (\(entity.selectColumns)) SELECT \(selected.joined(separator: ", ")) FROM \(table)"
        )
        for (index, argument) in arguments.enumerated() { try statement.bind(argument, Int32(index + 1)) }
        try statement.run()
        try connection.execute("DROP TABLE \(table)")
        try connection.execute("ALTER TABLE \(temporary) RENAME TO \(table)")
    }

    /// Shifts the columns that changed between `.date` and `.day`, and their values in the
    /// history's deletion tombstones.
    private func convertDays(on connection: SQLiteConnection) throws {
        guard !dayConversions.isEmpty else { return }
        let hasHistory = try HistoryLog.exists(on: connection)
        for conversion in dayConversions {
            let column = SQLiteConnection.quote(conversion.property)
            try connection.execute(
                "UPDATE \(SQLiteConnection.quote(conversion.entity)) SET \(column) = \(column) + \(conversion.shift)")
            if hasHistory {
                try StoreFormatUpgrade.shiftTombstones(
                    of: conversion.oldEntity, [conversion.oldColumn], by: conversion.shift, on: connection)
            }
        }
    }

    /// A constant as SQL text, for a column's DEFAULT.
    static func literal(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let value): return "X'" + value.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
