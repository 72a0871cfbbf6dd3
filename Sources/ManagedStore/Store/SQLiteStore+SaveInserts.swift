extension SaveTransaction {
    // MARK: Insertions

    mutating func performInserts() throws {
        let inserts = request.inserts
        guard !inserts.isEmpty else { return }
        let ids = try permanentIDs(for: inserts)
        outcome.insertFates.reserveCapacity(inserts.count)
        outcome.insertedRows.reserveCapacity(inserts.count)
        outcome.insertedTemporaryIDs.reserveCapacity(inserts.count)
        // Runs of one entity go in multi-row statements; a run whose statement breaks a
        // uniqueness constraint (which undoes that statement only) goes again row by row, so
        // that each conflict is resolved on its own.
        var start = 0
        while start < inserts.count {
            let entity = inserts[start].objectID.entity
            var end = start + 1
            while end < inserts.count && end - start < entity.insertBatchRows && inserts[end].objectID.entity === entity
            {
                end += 1
            }
            if end - start == entity.insertBatchRows {
                do {
                    try insertRows(start..<end, ids: ids)
                    for index in start..<end { recordInserted(index, id: ids[index]) }
                    start = end
                    continue
                } catch let error as SQLiteError
                    where SQLiteError.ResultCode.constraint ~= error.resultCode && !entity.uniquenessConstraints.isEmpty
                {
                    // Replayed row by row below.
                }
            }
            let statement = try connection.statement(entity.insertSQL)
            for index in start..<end {
                do {
                    try insertRow(ids[index], values: inserts[index].values, version: 1, using: statement)
                    recordInserted(index, id: ids[index])
                } catch let error as SQLiteError
                    where SQLiteError.ResultCode.constraint ~= error.resultCode && !entity.uniquenessConstraints.isEmpty
                {
                    outcome.insertFates.append(try resolveConstraintConflict(index, error: error))
                }
            }
            start = end
        }
    }

    /// The permanent ID of each insert: its own, or a key reserved now (per entity, in one step).
    mutating func permanentIDs(for inserts: [SaveRequest.Insert]) throws -> [ManagedObjectID] {
        // How many keys each entity needs (a short list: most saves have one entity).
        var counts: [(entity: EntityDescription, count: Int)] = []
        for insert in inserts where insert.objectID.isTemporaryID {
            let entity = insert.objectID.entity
            if let last = counts.indices.last, counts[last].entity === entity {
                counts[last].count += 1
            } else if let index = counts.firstIndex(where: { $0.entity === entity }) {
                counts[index].count += 1
            } else {
                counts.append((entity, 1))
            }
        }
        var nextKeys: [(entity: EntityDescription, key: Int64)] = []
        for (entity, count) in counts {
            let range = try store.reservePrimaryKeys(count, for: entity, on: connection)
            reservedKeys[ObjectIdentifier(entity)] = range
            nextKeys.append((entity, range.lowerBound))
        }
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(inserts.count)
        var current = 0
        for insert in inserts {
            guard insert.objectID.isTemporaryID else {
                ids.append(insert.objectID)
                continue
            }
            let entity = insert.objectID.entity
            if nextKeys[current].entity !== entity {
                current = nextKeys.firstIndex { $0.entity === entity }!
            }
            ids.append(ManagedObjectID(entity: entity, store: store.persistentStore, primaryKey: nextKeys[current].key))
            nextKeys[current].key += 1
        }
        return ids
    }

    mutating func recordInserted(_ index: Int, id: ManagedObjectID) {
        let insert = request.inserts[index]
        outcome.insertedRows.append(RowSnapshot(id: id, version: 1, values: insert.values))
        outcome.insertedTemporaryIDs.append(insert.objectID.isTemporaryID ? insert.objectID : nil)
        outcome.insertFates.append(.inserted(row: outcome.insertedRows.count - 1))
    }

    /// Inserts the rows of `range` (one entity, a full batch) in one multi-row statement.
    func insertRows(_ range: Range<Int>, ids: [ManagedObjectID]) throws {
        let statement = try connection.statement(ids[range.lowerBound].entity.batchInsertSQL)
        defer { statement.resetKeepingBindings() }
        var parameter: Int32 = 1
        // A statement that fails (a conflict, replayed row by row) keeps none of its files.
        var written: [String] = []
        do {
            for index in range {
                try statement.bind(ids[index].key, parameter)
                try statement.bind(Int64(1), parameter + 1)
                parameter += 2
                let bound = try external.bound(request.inserts[index].values, of: ids[index].entity)
                written += bound.written
                for value in bound.values {
                    try statement.bind(value, parameter)
                    parameter += 1
                }
            }
            try statement.run()
        } catch {
            external.discard(written)
            throw error
        }
    }

    /// The insert at `index` breaks a uniqueness constraint: resolve it by the merge policy.
    mutating func resolveConstraintConflict(_ index: Int, error: SQLiteError) throws -> SaveOutcome.Fate {
        let insert = request.inserts[index]
        let entity = insert.objectID.entity
        guard let (constraint, existing) = try conflictingRow(for: insert.values, entity: entity) else { throw error }
        // The index of the insert of this save that owns the row, if this save inserted it.
        let owner = insertIndex(owning: existing.id)
        switch policy {
        case .error:
            var values: [String: AttributeValue] = [:]
            for name in constraint { values[name] = insert.values[entity.slotByName[name]!] }
            constraintConflicts.append(
                ConstraintConflict(
                    entityName: entity.name, constraint: constraint, values: values,
                    conflictingObjectIDs: (owner.map { [request.inserts[$0].objectID] } ?? []) + [insert.objectID],
                    databaseObjectID: owner == nil ? existing.id : nil))
            return .deleted
        case .mergeByPropertyObjectTrump, .overwrite:
            // The object takes over the row with its values.
            let version = existing.version + 1
            _ = try writeRow(existing.id, values: insert.values, version: version, expecting: nil)
            let row = RowSnapshot(id: existing.id, version: version, values: insert.values)
            if let owner {
                outcome.insertFates[owner] = .superseded(by: existing.id)
                takenOver[existing.id.key] = index
                if let position = outcome.insertedRows.firstIndex(where: { $0.id == existing.id }) {
                    outcome.insertedRows[position] = row
                    outcome.insertedTemporaryIDs[position] = nil
                }
            } else {
                outcome.updatedRows.append(row)
                recordHistoryUpdate(existing.id, from: existing.values, to: insert.values)
            }
            if insert.objectID.isTemporaryID { outcome.adoptedIDs.append((insert.objectID, existing.id)) }
            return .row(row)
        case .mergeByPropertyStoreTrump, .rollback:
            // The object becomes the stored row; nothing is written. Among this save's own
            // inserts, the first keeps the row.
            if owner != nil { return .superseded(by: existing.id) }
            if insert.objectID.isTemporaryID { outcome.adoptedIDs.append((insert.objectID, existing.id)) }
            return .row(existing)
        }
    }

    /// The index of the insert of this save that owns the row `id`, or nil for an older row.
    func insertIndex(owning id: ManagedObjectID) -> Int? {
        if let index = takenOver[id.key] { return index }
        guard let range = reservedKeys[ObjectIdentifier(id.entity)], range.contains(id.key) else {
            return request.inserts.firstIndex { $0.objectID == id }
        }
        // Keys were handed out in insert order, one per temporary ID of the entity.
        var key = range.lowerBound
        for (index, insert) in request.inserts.enumerated()
        where insert.objectID.isTemporaryID && insert.objectID.entity === id.entity {
            if key == id.key { return index }
            key += 1
        }
        return nil
    }

    /// The first uniqueness constraint that `values` break, and the row they break it with.
    func conflictingRow(for values: [AttributeValue], entity: EntityDescription) throws -> ([String], RowSnapshot)? {
        for constraint in entity.uniquenessConstraints {
            // In a hierarchy's table, only a row of the same entity can be merged with; a row of
            // another entity that breaks an inherited constraint leaves SQLite's error.
            let condition =
                constraint.map { "\(SQLiteConnection.quote($0)) IS ?" }.joined(separator: " AND ")
                + (entity.isInHierarchy ? " AND Z_ENT = \(entity.entityLiteral)" : "")
            let statement = try connection.statement(
                "SELECT \(entity.selectColumns) FROM \(entity.quotedTable) WHERE \(condition) LIMIT 1")
            defer { statement.reset() }
            for (index, name) in constraint.enumerated() {
                try statement.bind(values[entity.slotByName[name]!].sqliteValue, Int32(index + 1))
            }
            if try statement.step() {
                return (constraint, try store.row(from: statement, entity: entity))
            }
        }
        return nil
    }
}
