import CSQLite
import Foundation

extension SQLiteStore {
    /// Sets `assignments` on the rows `query` selects, in one write transaction; returns their IDs.
    func batchUpdate(
        _ query: StoreQuery, assignments: [(slot: Int, value: AttributeValue)],
        author: String?, contextName: String?
    ) throws -> [ManagedObjectID] {
        try checkWritableHistory()
        let entity = query.entity
        return try write(isBatch: true) { connection in
            let sets = assignments.map { "\(entity.quotedColumns[$0.slot]) = ?" } + ["Z_OPT = Z_OPT + 1"]
            var sql = "UPDATE \(entity.quotedTable) SET \(sets.joined(separator: ", "))"
            if let condition = query.rowCondition { sql += " WHERE \(condition)" }
            // With sub-entities, each row's entity too, so that each ID names it.
            sql += query.selectsSubentities ? " RETURNING Z_PK, Z_ENT" : " RETURNING Z_PK"
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            var index: Int32 = 1
            for (_, value) in assignments {
                try statement.bind(value, index)
                index += 1
            }
            for argument in query.arguments {
                try statement.bind(argument, index)
                index += 1
            }
            var ids: [ManagedObjectID] = []
            do {
                while try statement.step() {
                    let rowEntity =
                        query.selectsSubentities ? entity.descendant(named: statement.text(1)) ?? entity : entity
                    ids.append(
                        ManagedObjectID(entity: rowEntity, store: persistentStore, primaryKey: statement.int64(0)))
                }
            } catch let error as SQLiteError where SQLiteError.ResultCode.constraint ~= error.resultCode {
                throw Self.constraintConflict(entity: entity, assignments: assignments) ?? error
            }
            if recordsHistory && !ids.isEmpty {
                let names = assignments.map { entity.storedProperties[$0.slot].name }
                var entry = HistoryLog.Entry(author: author, contextName: contextName)
                entry.updated = ids.map { ($0, names) }
                try recordHistory(entry, on: connection)
            }
            return ids
        }
    }

    /// The conflict an update of `assignments` on several rows makes with a uniqueness constraint.
    private static func constraintConflict(
        entity: EntityDescription, assignments: [(slot: Int, value: AttributeValue)]
    ) -> ManagedStoreError? {
        let assigned = Dictionary(
            uniqueKeysWithValues: assignments.map { (entity.storedProperties[$0.slot].name, $0.value) })
        guard let constraint = entity.uniquenessConstraints.first(where: { $0.contains { assigned[$0] != nil } }) else {
            return nil
        }
        var values: [String: AttributeValue] = [:]
        for name in constraint where assigned[name] != nil { values[name] = assigned[name] }
        return ManagedStoreError.saveConflicts(
            constraint: [
                ConstraintConflict(
                    entityName: entity.name, constraint: constraint, values: values, conflictingObjectIDs: [],
                    databaseObjectID: nil)
            ],
            optimisticLocking: [])
    }

    /// Deletes the rows `query` selects, in one write transaction, applying the delete rules
    /// that need no objects; returns their IDs.
    func batchDelete(_ query: StoreQuery, author: String?, contextName: String?) throws -> [ManagedObjectID] {
        try checkWritableHistory()
        let entity = query.entity
        // The files of the rows' values with external storage go once the deletion commits.
        let external = ExternalDataChanges(files: ExternalDataFiles(storeURL: url))
        let deleted: [ManagedObjectID] = try write(isBatch: true) { connection in
            var rows: [RowSnapshot] = []
            let select = try connection.statement(query.selectSQL())
            for (index, argument) in query.arguments.enumerated() { try select.bind(argument, Int32(index + 1)) }
            while try select.step() {
                rows.append(
                    try query.selectsSubentities
                        ? row(fromSubtreeOf: entity, select) : row(from: select, entity: entity))
            }
            select.reset()
            guard !rows.isEmpty else { return [] }
            for row in rows where !row.id.entity.externalSlots.isEmpty {
                external.release(
                    Array(try external.references(of: row.id.entity, key: row.id.key, on: connection).values))
            }
            let keys = rows.map(\.id.key)
            var entry = HistoryLog.Entry(author: author, contextName: contextName)
            // Relationships whose other side holds a key to these rows: the entity's, and those
            // its sub-entities declare (their rows are among these, with the same keys).
            let relationships =
                query.selectsSubentities
                ? entity.selfAndDescendants.flatMap {
                    $0.resolvedRelationships.dropFirst($0 === entity ? 0 : $0.superentity!.relationships.count)
                }
                : entity.resolvedRelationships
            for relationship in relationships {
                if let join = relationship.join {
                    entry.updated += try Self.unlinkForBatchDelete(
                        relationship, join: join, keys: keys, entity: entity, store: persistentStore,
                        on: connection)
                    continue
                }
                guard let inverseSlot = relationship.inverseSlot else { continue }
                let destination = relationship.destination
                let column = destination.quotedColumns[inverseSlot]
                let referencing = try Self.keys(of: destination, where: column, in: keys, on: connection)
                guard !referencing.isEmpty else { continue }
                switch relationship.description.deleteRule {
                case .noAction:
                    continue
                case .cascade, .deny:
                    throw Self.ruleNeedsObjects(relationship, related: referencing.count, entity: entity)
                case .nullify:
                    for start in stride(from: 0, to: keys.count, by: 500) {
                        let batch = keys[start..<min(keys.count, start + 500)]
                        let sql =
                            "UPDATE \(destination.quotedTable) SET \(column) = NULL, Z_OPT = Z_OPT + 1 WHERE \(column) IN (\(Array(repeating: "?", count: batch.count).joined(separator: ", ")))"
                        let statement = try connection.statement(sql)
                        for (index, key) in batch.enumerated() { try statement.bind(key, Int32(index + 1)) }
                        try statement.run()
                        statement.reset()
                    }
                    let name = destination.storedProperties[inverseSlot].name
                    entry.updated += referencing.map {
                        (ManagedObjectID(entity: destination, store: persistentStore, primaryKey: $0), [name])
                    }
                }
            }
            let delete = try connection.statement(entity.deleteSQL)
            for key in keys {
                try delete.bind(key, 1)
                try delete.run()
                delete.reset()
            }
            if recordsHistory {
                let constrained = entity.tombstoneAttributeNames
                entry.deleted = rows.map { row in
                    (row.id, constrained.compactMap { name in entity.slotByName[name].map { (name, row.values[$0]) } })
                }
                try recordHistory(entry, on: connection)
            }
            return rows.map(\.id)
        }
        external.files.release(external.released)  // committed: no row names them now
        return deleted
    }

    /// Removes the links of the rows with `keys` by the many-to-many `relationship`, by its
    /// delete rule: the linked objects of the other side become updated (nullify), are left as
    /// they are (no action), or refuse the batch (cascade, deny: it needs objects). Returns
    /// the history's updates.
    private static func unlinkForBatchDelete(
        _ relationship: ResolvedRelationship, join: JoinTable, keys: [Int64], entity: EntityDescription,
        store: PersistentStore, on connection: SQLiteConnection
    ) throws -> [(ManagedObjectID, [String])] {
        let destination = relationship.destination
        var linked = Set<Int64>()
        for start in stride(from: 0, to: keys.count, by: 500) {
            let batch = keys[start..<min(keys.count, start + 500)]
            let statement = try connection.statement(
                "SELECT DISTINCT \(join.otherColumn) FROM \(join.quotedName) WHERE \(join.ownColumn) IN (\(Array(repeating: "?", count: batch.count).joined(separator: ", ")))"
            )
            for (index, key) in batch.enumerated() { try statement.bind(key, Int32(index + 1)) }
            while try statement.step() { linked.insert(statement.int64(0)) }
            statement.reset()
        }
        // A symmetric relationship's objects may be linked to each other: those go too.
        if join.isSymmetric { linked.subtract(keys) }
        var updated: [(ManagedObjectID, [String])] = []
        if !linked.isEmpty {
            switch relationship.description.deleteRule {
            case .noAction:
                break
            case .cascade, .deny:
                throw Self.ruleNeedsObjects(relationship, related: linked.count, entity: entity)
            case .nullify:
                let sorted = linked.sorted()
                for start in stride(from: 0, to: sorted.count, by: 500) {
                    let batch = sorted[start..<min(sorted.count, start + 500)]
                    let statement = try connection.statement(
                        "UPDATE \(destination.quotedTable) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN (\(Array(repeating: "?", count: batch.count).joined(separator: ", ")))"
                    )
                    for (index, key) in batch.enumerated() { try statement.bind(key, Int32(index + 1)) }
                    try statement.run()
                    statement.reset()
                }
                let name = relationship.inverse?.name ?? relationship.name
                updated = sorted.map { (ManagedObjectID(entity: destination, store: store, primaryKey: $0), [name]) }
            }
        }
        try SQLiteStore.deleteLinks(in: join, keys: keys, on: connection)
        return updated
    }

    /// The refusal of a batch delete whose rows are related by a cascade or deny rule.
    private static func ruleNeedsObjects(
        _ relationship: ResolvedRelationship, related count: Int, entity: EntityDescription
    ) -> ManagedStoreError {
        .invalidBatchRequest(
            entity: entity.name,
            reason: """
                \(count) \(relationship.destination.name) object\(count == 1 ? " is" : "s are") related to the objects \
                to delete by '\(relationship.name)', whose delete rule (\(relationship.description.deleteRule)) a batch delete \
                does not apply; delete them through a context. Nothing was deleted
                """)
    }

    /// The keys of `entity`'s rows whose `column` holds one of `keys`.
    private static func keys(
        of entity: EntityDescription, where column: String, in keys: [Int64],
        on connection: SQLiteConnection
    ) throws -> [Int64] {
        var found: [Int64] = []
        for start in stride(from: 0, to: keys.count, by: 500) {
            let batch = keys[start..<min(keys.count, start + 500)]
            let statement = try connection.statement(
                "SELECT Z_PK FROM \(entity.quotedTable) WHERE \(column) IN (\(Array(repeating: "?", count: batch.count).joined(separator: ", ")))"
            )
            for (index, key) in batch.enumerated() { try statement.bind(key, Int32(index + 1)) }
            while try statement.step() { found.append(statement.int64(0)) }
            statement.reset()
        }
        return found
    }
}
