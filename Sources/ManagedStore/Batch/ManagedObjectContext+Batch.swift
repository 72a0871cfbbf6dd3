import Foundation

extension ManagedObjectContext {
    /// Runs a batch insert against the store (not this context: its objects and pending
    /// changes are untouched). See ``BatchInsertRequest``.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchInsertRequest<T>) throws -> BatchResult {
        checkQueue()
        let entity = try entity(for: T.self)
        if entity.isAbstract {
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name, reason: "the entity is abstract: insert rows of one of its sub-entities")
        }
        var rows: [[AttributeValue]] = []
        var failures: [ValidationFailure] = []
        func add(_ values: [AttributeValue]) {
            let id = ManagedObjectID.makeTemporary(for: entity)
            for slot in entity.requiredSlots where values[slot].isNull {
                failures.append(
                    ValidationFailure(
                        objectID: id, attribute: entity.storedProperties[slot].name,
                        code: .missingMandatoryProperty,
                        reason: "is nil, but the attribute is not optional (row \(rows.count + 1) of the batch insert)")
                )
            }
            rows.append(values)
        }
        switch request.source {
        case .objects(let objects):
            rows.reserveCapacity(objects.count)
            for object in objects { add(try Self.batchRow(object, entity: entity, row: rows.count + 1)) }
        case .dictionaryHandler(let handler):
            while true {
                var dictionary: [String: AttributeValue] = [:]
                if handler(&dictionary) { break }
                add(try Self.batchRow(dictionary, entity: entity, row: rows.count + 1))
            }
        case .objectHandler(let handler):
            let scratch = T(entity: entity, insertInto: nil)
            while true {
                scratch.values = entity.defaultValues
                if handler(scratch) { break }
                add(scratch.values)
            }
        }
        if !failures.isEmpty { throw ManagedStoreError.validationFailed(failures) }
        guard !rows.isEmpty else { return BatchResult([], as: request.resultType) }
        var save = SaveRequest(mergePolicy: .mergeByPropertyObjectTrump)
        (save.transactionAuthor, save.contextName) = settings.withLock { ($0.transactionAuthor, $0.name) }
        save.inserts = rows.map { SaveRequest.Insert(objectID: .makeTemporary(for: entity), values: $0) }
        let outcome = try store(for: entity).save(save)
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(rows.count)
        for fate in outcome.insertFates {
            switch fate {
            case .inserted(let index): ids.append(outcome.insertedRows[index].id)
            case .row(let row): ids.append(row.id)
            case .superseded(let id): ids.append(id)
            case .deleted: break
            }
        }
        return BatchResult(ids, as: request.resultType)
    }

    /// The values of a batch-inserted row given as a dictionary: checked names and types, the
    /// defaults for the rest.
    static func batchRow(
        _ dictionary: [String: AttributeValue], entity: EntityDescription, row: Int
    ) throws -> [AttributeValue] {
        var values = entity.defaultValues
        for (name, value) in dictionary {
            values[try batchSlot(name, value, entity: entity, row: row)] = value
        }
        return values
    }

    /// The slot `name` names, checked to hold `value`.
    static func batchSlot(_ name: String, _ value: AttributeValue, entity: EntityDescription, row: Int?) throws -> Int {
        let at = row.map { " (row \($0))" } ?? ""
        guard let slot = entity.storedSlotByName[name] else {
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name, reason: "it has no attribute or to-one relationship '\(name)'\(at)")
        }
        let attribute = entity.storedProperties[slot]
        if name.hasPrefix("Z_") {
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name, reason: "it has no attribute or to-one relationship '\(name)'\(at)")
        }
        if row == nil, entity.resolvedRelationship(named: name)?.positionSlot != nil {
            // The members' positions are the objects' to keep: the member would keep its place.
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name,
                reason:
                    "\(name) is the inverse of an ordered relationship, which a batch update does not set: set it on the objects"
            )
        }
        if row == nil, attribute.allowsExternalBinaryDataStorage {
            // An UPDATE in SQL alone would leave the old values' files behind.
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name,
                reason: "\(name) allows external storage, which a batch update does not set: set it on the objects")
        }
        guard value.fits(attribute.type) else {
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name, reason: "\(name) is \(attribute.type), not \(value)\(at)")
        }
        if case .object(let id) = value {
            guard !id.isTemporaryID, entity.slotDestinations[slot].map(id.entity.isKindOf(entity:)) == true else {
                throw ManagedStoreError.invalidBatchRequest(
                    entity: entity.name,
                    reason:
                        "\(name) must be a saved \(entity.slotDestinations[slot]?.name ?? "?") object, not \(id)\(at)")
            }
        }
        if value.isNull && !attribute.isOptional {
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name, reason: "\(name) is not optional, so it cannot be set to nil\(at)")
        }
        return slot
    }

    /// Runs a batch update against the store. See ``BatchUpdateRequest``.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchUpdateRequest<T>) throws -> BatchResult {
        checkQueue()
        let entity = try entity(for: T.self)
        let assignments = try request.propertiesToUpdate.sorted { $0.key < $1.key }.map { name, value in
            (slot: try Self.batchSlot(name, value, entity: entity, row: nil), value: value)
        }
        guard !assignments.isEmpty else {
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name, reason: "the batch update sets no attribute")
        }
        var query = StoreQuery(entity: entity)
        if let predicate = request.predicate {
            (query.whereClause, query.arguments) = try PredicateSQLCompiler(entity: entity).whereClause(for: predicate)
        }
        let (author, name) = settings.withLock { ($0.transactionAuthor, $0.name) }
        let ids = try store(for: entity).batchUpdate(query, assignments: assignments, author: author, contextName: name)
        return BatchResult(ids, as: request.resultType)
    }

    /// Runs a batch delete against the store. See ``BatchDeleteRequest``.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchDeleteRequest<T>) throws -> BatchResult {
        checkQueue()
        let query: StoreQuery
        if let objectIDs = request.objectIDs {
            guard let objectQuery = try objectIDQuery(objectIDs) else { return BatchResult([], as: request.resultType) }
            query = objectQuery
        } else {
            query = try FetchPlan(request.fetchRequest, entity: try entity(for: request.fetchRequest)).query
        }
        let (author, name) = settings.withLock { ($0.transactionAuthor, $0.name) }
        let ids = try store(for: query.entity).batchDelete(query, author: author, contextName: name)
        return BatchResult(ids, as: request.resultType)
    }

    /// The rows of `objectIDs` (nil for none), checked to be saved objects of one entity of
    /// this context's store.
    private func objectIDQuery(_ objectIDs: [ManagedObjectID]) throws -> StoreQuery? {
        guard let first = objectIDs.first else { return nil }
        let entity = first.entity
        if let other = objectIDs.first(where: { $0.entity !== entity }) {
            throw ManagedStoreError.invalidBatchRequest(
                entity: entity.name,
                reason:
                    "its object IDs are of two entities, \(entity.name) and \(other.entity.name); a batch delete by object IDs deletes one entity's objects"
            )
        }
        let store = try store(for: first)
        for id in objectIDs {
            if id.isTemporaryID {
                throw ManagedStoreError.invalidBatchRequest(
                    entity: entity.name, reason: "\(id) is a temporary ID: its object was never saved")
            }
            if id.persistentStore?.identifier != store.persistentStore.identifier {
                throw ManagedStoreError.invalidBatchRequest(
                    entity: entity.name, reason: "\(id) is an object of another store")
            }
        }
        var query = StoreQuery(entity: entity)
        // One argument whatever the count (SQLite limits a statement's arguments).
        query.whereClause = "Z_PK IN (SELECT value FROM json_each(?))"
        query.arguments = [.text("[" + objectIDs.map { String($0.key) }.joined(separator: ",") + "]")]
        return query
    }

    /// Merges changes made to the store outside any of these contexts (a batch request's
    /// object IDs, another process's history) into each of `contexts`, on its own queue, as
    /// Core Data's `mergeChanges(fromRemoteContextSave:into:)`; returns when all have merged.
    public static func mergeChanges(
        fromRemoteContextSave changes: ContextSaveChanges, into contexts: [ManagedObjectContext]
    ) {
        for context in contexts {
            context.performAndWait { context.mergeChanges(fromContextDidSave: changes) }
        }
    }
}
