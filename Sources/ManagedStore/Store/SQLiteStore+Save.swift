import CSQLite
import Foundation

extension SQLiteStore {
    /// Writes a save in one transaction: deletions, then updates, then insertions, resolving
    /// conflicts by the request's merge policy. With `.error`, any conflict rolls everything
    /// back and throws ``ManagedStoreError/saveConflicts(constraint:optimisticLocking:)``.
    func save(_ request: SaveRequest) throws -> SaveOutcome {
        try checkWritableHistory()
        // The files of values with external storage: those written are removed if the
        // transaction rolls back, those released once it has committed.
        let external = ExternalDataChanges(files: ExternalDataFiles(storeURL: url))
        do {
            let outcome = try write { connection in
                var transaction = SaveTransaction(
                    store: self, connection: connection, request: request, external: external)
                try transaction.run()
                if transaction.recordsHistory {
                    try recordHistory(transaction.history, on: connection)
                }
                return transaction.outcome
            }
            external.files.release(external.released)
            return outcome
        } catch {
            external.files.remove(external.written)
            throw error
        }
    }
}

extension SQLiteStore {
    /// Writes each part's save to its store, all in one go: the stores' write transactions are
    /// opened one inside the other (in the order given, ``lockOrder(_:_:)``'s, so that saves
    /// never wait for each other in a circle), and committed only once every part has run, the
    /// last store's first. A part that fails rolls back every part. Only a failure of
    /// a commit itself (an I/O error) can leave the stores committed before it, as a save
    /// across stores is in Core Data: not one transaction.
    static func save(_ parts: [(store: SQLiteStore, request: SaveRequest)]) throws -> [SaveOutcome] {
        if parts.count == 1 { return [try parts[0].store.save(parts[0].request)] }
        for part in parts { try part.store.checkWritableHistory() }
        let externals = parts.map { ExternalDataChanges(files: ExternalDataFiles(storeURL: $0.store.url)) }
        var committed = Array(repeating: false, count: parts.count)
        func run(from index: Int) throws -> [SaveOutcome] {
            guard index < parts.count else { return [] }
            let (store, request) = parts[index]
            let outcomes = try store.write { connection in
                var transaction = SaveTransaction(
                    store: store, connection: connection, request: request, external: externals[index])
                try transaction.run()
                if transaction.recordsHistory { try store.recordHistory(transaction.history, on: connection) }
                return [transaction.outcome] + (try run(from: index + 1))
            }
            committed[index] = true
            return outcomes
        }
        do {
            let outcomes = try run(from: 0)
            for external in externals { external.files.release(external.released) }
            return outcomes
        } catch {
            for (external, done) in zip(externals, committed) {
                if done { external.files.release(external.released) } else { external.files.remove(external.written) }
            }
            throw error
        }
    }
}

/// One save's work inside its write transaction.
struct SaveTransaction {
    let store: SQLiteStore
    let connection: SQLiteConnection
    let request: SaveRequest
    var policy: MergePolicy { request.mergePolicy }
    var outcome = SaveOutcome()
    var constraintConflicts: [ConstraintConflict] = []
    var lockingConflicts: [OptimisticLockingConflict] = []
    /// The keys reserved by this transaction, per entity: a conflicting row whose key is among
    /// them was inserted by this save.
    var reservedKeys: [ObjectIdentifier: ClosedRange<Int64>] = [:]
    /// Rows of this save's inserts that a conflict resolution handed to another insert:
    /// row key → index of the insert that owns the row now.
    var takenOver: [Int64: Int] = [:]
    /// The files of values with external storage this save writes and releases.
    let external: ExternalDataChanges
    /// Whether the store records persistent history, and what this save recorded.
    let recordsHistory: Bool
    var history: HistoryLog.Entry

    init(store: SQLiteStore, connection: SQLiteConnection, request: SaveRequest, external: ExternalDataChanges) {
        self.external = external
        self.store = store
        self.connection = connection
        self.request = request
        self.recordsHistory = store.recordsHistory
        self.history = HistoryLog.Entry(author: request.transactionAuthor, contextName: request.contextName)
    }

    mutating func run() throws {
        outcome.deleteFates.reserveCapacity(request.deletes.count)
        for delete in request.deletes { outcome.deleteFates.append(try perform(delete)) }
        outcome.updateFates.reserveCapacity(request.updates.count)
        for update in request.updates { outcome.updateFates.append(try perform(update)) }
        try performInserts()
        try performLinks()
        try readDerivedValues()
        if !constraintConflicts.isEmpty || !lockingConflicts.isEmpty {
            throw ManagedStoreError.saveConflicts(constraint: constraintConflicts, optimisticLocking: lockingConflicts)
        }
        if recordsHistory { history.inserted = outcome.insertedRows.map(\.id) }
    }

    /// Records an update for the history: the names of the properties whose values changed.
    mutating func recordHistoryUpdate(
        _ id: ManagedObjectID, from old: [AttributeValue], to new: [AttributeValue], relationships: [String] = []
    ) {
        guard recordsHistory else { return }
        var names: [String] = []
        for slot in id.entity.storedProperties.indices where old[slot] != new[slot] {
            // A member's new place in an ordered relationship is a change of its to-one.
            var name = id.entity.storedProperties[slot].name
            if name.hasPrefix("Z_FOK_") { name = String(name.dropFirst("Z_FOK_".count)) }
            if !names.contains(name) { names.append(name) }
        }
        history.updated.append((id, names + relationships))
    }

    // MARK: Derived attributes

    /// Puts the values the store's triggers computed for the derived attributes of the rows
    /// this save wrote into the outcome, so that the saved objects hold them.
    mutating func readDerivedValues() throws {
        guard !store.model.derivedAttributes.isEmpty else { return }
        func read(_ row: inout RowSnapshot) throws {
            let entity = row.id.entity
            guard !entity.derivedSlots.isEmpty else { return }
            let statement = try connection.statement(entity.selectDerivedSQL)
            defer { statement.reset() }
            try statement.bind(row.id.key, 1)
            guard try statement.step() else { return }
            var values = row.values
            for (column, slot) in entity.derivedSlots.enumerated() {
                values[slot] = try statement.attributeValue(
                    Int32(column), type: entity.storedProperties[slot].type, destination: nil,
                    store: store.persistentStore)
            }
            row = RowSnapshot(id: row.id, version: row.version, values: values)
        }
        for index in outcome.insertedRows.indices { try read(&outcome.insertedRows[index]) }
        for index in outcome.updatedRows.indices { try read(&outcome.updatedRows[index]) }
        // The fates carry copies of the rows.
        for (index, fate) in outcome.updateFates.enumerated() {
            if case .row(var row) = fate {
                try read(&row)
                outcome.updateFates[index] = .row(row)
            }
        }
        for (index, fate) in outcome.insertFates.enumerated() {
            if case .row(var row) = fate {
                try read(&row)
                outcome.insertFates[index] = .row(row)
            }
        }
    }

    // MARK: Many-to-many links

    /// Writes the save's links and unlinks to their join tables, after the insertions, whose
    /// objects' temporary IDs the links may name.
    mutating func performLinks() throws {
        guard !request.links.isEmpty else { return }
        var saved: [ManagedObjectID: ManagedObjectID] = [:]
        for (insert, fate) in zip(request.inserts, outcome.insertFates) {
            switch fate {
            case .inserted(let row): saved[insert.objectID] = outcome.insertedRows[row].id
            case .row(let row): saved[insert.objectID] = row.id
            case .superseded(let id): saved[insert.objectID] = id
            case .deleted: break
            }
        }
        for link in request.links {
            guard let owner = link.owner.isTemporaryID ? saved[link.owner] : link.owner,
                let member = link.member.isTemporaryID ? saved[link.member] : link.member
            else { continue }  // an insertion this save did not keep
            // A link to a row another context deleted meanwhile is not made: the deletion took
            // that row's links with it, and a join row to nothing would count (`@count`).
            let statement = try connection.statement(
                link.linked
                    ? "INSERT OR IGNORE INTO \(link.table.quotedName) (Z_OWNER, Z_MEMBER) SELECT ?1, ?2 "
                        + "WHERE EXISTS (SELECT 1 FROM \(owner.entity.quotedTable) WHERE Z_PK = ?1) "
                        + "AND EXISTS (SELECT 1 FROM \(member.entity.quotedTable) WHERE Z_PK = ?2)"
                    : "DELETE FROM \(link.table.quotedName) WHERE Z_OWNER = ?1 AND Z_MEMBER = ?2")
            // A symmetric relationship's link is a row each way.
            let ways =
                link.table.isSymmetric && owner != member ? [(owner, member), (member, owner)] : [(owner, member)]
            for (from, to) in ways {
                defer { statement.reset() }
                try statement.bind(from.key, 1)
                try statement.bind(to.key, 2)
                try statement.run()
            }
        }
    }

    // MARK: Deletions

    mutating func perform(_ delete: SaveRequest.Delete) throws -> SaveOutcome.Fate {
        let entity = delete.objectID.entity
        // The history keeps the values of the row's uniqueness constraints and preserved
        // attributes (its tombstone).
        let tombstoneNames = recordsHistory ? entity.tombstoneAttributeNames : []
        let tombstoneRow = tombstoneNames.isEmpty ? nil : try store.row(for: delete.objectID, on: connection)
        let references = try external.references(of: entity, key: delete.objectID.key, on: connection)
        let statement = try connection.statement(entity.checkedDeleteSQL)
        try statement.bind(delete.objectID.key, 1)
        try statement.bind(delete.version, 2)
        try statement.run()
        statement.reset()
        var deletedRow = connection.changes > 0
        if !deletedRow, let current = try store.row(for: delete.objectID, on: connection) {
            // The row changed since the object was read.
            if policy == .error {
                lockingConflicts.append(
                    conflict(delete.objectID, cached: delete.version, values: nil, current: current))
                return .row(current)
            }
            let force = try connection.statement(entity.deleteSQL)
            try force.bind(delete.objectID.key, 1)
            try force.run()
            force.reset()
            deletedRow = true
        }
        outcome.deletedIDs.append(delete.objectID)
        if deletedRow { external.release(Array(references.values)) }
        try SQLiteStore.deleteLinks(of: entity, keys: [delete.objectID.key], on: connection)
        // A row another save deleted first is not deleted twice in the history.
        if recordsHistory && deletedRow {
            var tombstone: [(name: String, value: AttributeValue)] = []
            if let tombstoneRow {
                for name in tombstoneNames {
                    if let slot = entity.slotByName[name] { tombstone.append((name, tombstoneRow.values[slot])) }
                }
            }
            history.deleted.append((delete.objectID, tombstone))
        }
        return .deleted
    }

    // MARK: Updates

    mutating func perform(_ update: SaveRequest.Update) throws -> SaveOutcome.Fate {
        let id = update.objectID
        let newVersion = update.version + 1
        if try writeRow(
            id, values: update.values, version: newVersion, expecting: update.version, committed: update.committed)
        {
            recordHistoryUpdate(
                id, from: update.committed, to: update.values, relationships: update.changedRelationships)
            return recordUpdate(RowSnapshot(id: id, version: newVersion, values: update.values))
        }
        // Optimistic locking: the row changed or vanished since the object was read.
        guard let current = try store.row(for: id, on: connection) else {
            switch policy {
            case .error:
                lockingConflicts.append(conflict(id, cached: update.version, values: update.values, current: nil))
                return .deleted
            case .mergeByPropertyObjectTrump, .overwrite:
                try insertRow(id, values: update.values, version: newVersion)
                let row = RowSnapshot(id: id, version: newVersion, values: update.values)
                outcome.insertedRows.append(row)
                // No temporary ID: the list runs beside insertedRows, row for row.
                outcome.insertedTemporaryIDs.append(nil)
                return .row(row)
            case .mergeByPropertyStoreTrump, .rollback:
                return .deleted
            }
        }
        var merged: [AttributeValue]
        switch policy {
        case .error:
            lockingConflicts.append(conflict(id, cached: update.version, values: update.values, current: current))
            return .row(current)
        case .rollback:
            return .row(current)
        case .overwrite:
            merged = update.values
        case .mergeByPropertyObjectTrump:
            merged = current.values
            for slot in merged.indices where update.values[slot] != update.committed[slot] {
                merged[slot] = update.values[slot]
            }
        case .mergeByPropertyStoreTrump:
            merged = update.values
            for slot in merged.indices where current.values[slot] != update.committed[slot] {
                merged[slot] = current.values[slot]
            }
        }
        let version = current.version + 1
        _ = try writeRow(id, values: merged, version: version, expecting: nil)
        recordHistoryUpdate(id, from: current.values, to: merged, relationships: update.changedRelationships)
        return recordUpdate(RowSnapshot(id: id, version: version, values: merged))
    }

    mutating func recordUpdate(_ row: RowSnapshot) -> SaveOutcome.Fate {
        outcome.updatedRows.append(row)
        return .row(row)
    }

    // MARK: Rows

    func insertRow(
        _ id: ManagedObjectID, values: [AttributeValue], version: Int64, using prepared: SQLiteStatement? = nil
    ) throws {
        let statement = try prepared ?? connection.statement(id.entity.insertSQL)
        // Every parameter is bound again below, so the old bindings need no clearing.
        defer { statement.resetKeepingBindings() }
        try statement.bind(id.key, 1)
        try statement.bind(version, 2)
        var index: Int32 = 3
        let (bound, written) = try external.bound(values, of: id.entity)
        for value in bound {
            try statement.bind(value, index)
            index += 1
        }
        do {
            try statement.run()
        } catch {
            external.discard(written)  // a row not inserted (a conflict) keeps none of its files
            throw error
        }
    }

    /// Writes every column of a row; with `expecting`, only if the row is at that version.
    /// Returns whether a row was written. A value with external storage that is as
    /// `committed` has it keeps its file; one that changed gets a new file, and the old one is
    /// released.
    func writeRow(
        _ id: ManagedObjectID, values: [AttributeValue], version: Int64, expecting: Int64?,
        committed: [AttributeValue]? = nil
    ) throws -> Bool {
        let entity = id.entity
        var kept: [Int: String] = [:]
        var replaced: [String] = []
        for (slot, reference) in try external.references(of: entity, key: id.key, on: connection) {
            if let committed, committed[slot] == values[slot], entity.externalSlots.contains(slot) {
                kept[slot] = reference
            } else {
                replaced.append(reference)  // a new value, or one no longer kept in a file
            }
        }
        let (bound, written) = try external.bound(values, of: entity, kept: kept)
        let statement = try connection.statement(expecting == nil ? entity.updateSQL : entity.checkedUpdateSQL)
        defer { statement.reset() }
        var index: Int32 = 1
        for value in bound {
            try statement.bind(value, index)
            index += 1
        }
        try statement.bind(version, index)
        try statement.bind(id.key, index + 1)
        if let expecting { try statement.bind(expecting, index + 2) }
        try statement.run()
        guard connection.changes > 0 else {
            external.discard(written)
            return false
        }
        external.release(replaced)
        return true
    }

    func conflict(
        _ id: ManagedObjectID, cached: Int64, values: [AttributeValue]?, current: RowSnapshot?
    ) -> OptimisticLockingConflict {
        let names = id.entity.storedProperties.map(\.name)
        func snapshot(_ values: [AttributeValue]) -> [String: AttributeValue] {
            Dictionary(uniqueKeysWithValues: zip(names, values))
        }
        return OptimisticLockingConflict(
            objectID: id, cachedVersion: cached, persistedVersion: current?.version,
            objectSnapshot: values.map(snapshot) ?? [:], persistedSnapshot: current.map { snapshot($0.values) })
    }
}
