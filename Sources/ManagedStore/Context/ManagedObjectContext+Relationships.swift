import Foundation

extension ManagedObjectContext {
    /// The members of `owner`'s to-many `relationship`: the destination objects whose to-one
    /// inverse points at `owner`, in the store (or the parent) and among this context's
    /// objects, its unsaved changes counted.
    func members(of owner: ManagedObject, _ relationship: ResolvedRelationship) throws -> [ManagedObject] {
        if relationship.isManyToMany { return try manyToManyMembers(of: owner, relationship) }
        guard let slot = relationship.inverseSlot else { return [] }
        let destination = relationship.destination
        let target = AttributeValue.object(owner.objectID)
        var result: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        if let prefetched = prefetchedMembers[PrefetchKey(owner: owner.objectID, relationship: relationship.name)] {
            for object in prefetched
            where !object.isDeletedState && object.managedObjectContext === self && object.values[slot] == target {
                if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
            }
        } else if !owner.objectID.isTemporaryID || parent != nil {
            var fired: [ManagedObject] = []
            for row in try memberRows(ownerID: owner.objectID, relationship) {
                let object = materialize(row)
                fired.append(object)
                guard !object.isDeletedState, object.values.indices.contains(slot), object.values[slot] == target else {
                    continue
                }
                if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
            }
            // The fault fired: its members are known until the owner is refreshed, or the
            // context saves, merges or resets (Core Data keeps a fired to-many, too). This
            // context's own changes are applied over them at each read, as above.
            prefetchedMembers[PrefetchKey(owner: owner.objectID, relationship: relationship.name)] = fired
        }
        for object in inserted.objects
        where object.entity.isKindOf(entity: destination) && object.values[slot] == target {
            if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
        }
        for object in updated.values
        where object.entity.isKindOf(entity: destination) && !object.isDeletedState && !object.isFaultState
            && object.values[slot] == target
        {
            if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
        }
        if let position = relationship.memberPositionSlot { return Self.ordered(result, by: position) }
        return result
    }

    /// `members` in the order of their positions (at `slot`), as an ordered relationship has
    /// them. A member without a position (inserted by a batch request, or stored before the
    /// relationship was ordered) comes after those with one, in the order it came in.
    static func ordered(_ members: [ManagedObject], by slot: Int) -> [ManagedObject] {
        members.enumerated().sorted { first, second in
            switch (first.element.values[slot], second.element.values[slot]) {
            case (.integer(let one), .integer(let other)) where one != other: one < other
            case (.integer, .integer): first.offset < second.offset
            case (.integer, _): true
            case (_, .integer): false
            default: first.offset < second.offset
            }
        }.map(\.element)
    }

    /// The IDs of the members of `owner`'s to-many `relationship`, as ``members(of:_:)`` has
    /// them (the context's unsaved changes applied), without making objects of the rows.
    func memberIDs(of owner: ManagedObject, _ relationship: ResolvedRelationship) throws -> [ManagedObjectID] {
        if relationship.isManyToMany { return try manyToManyMemberIDs(of: owner, relationship) }
        guard let slot = relationship.inverseSlot else { return [] }
        if relationship.memberPositionSlot != nil { return try members(of: owner, relationship).map(\.objectID) }
        let prefetched = prefetchedMembers[PrefetchKey(owner: owner.objectID, relationship: relationship.name)]
        if parent != nil || prefetched != nil { return try members(of: owner, relationship).map(\.objectID) }
        let destination = relationship.destination
        let target = AttributeValue.object(owner.objectID)
        var result: [ManagedObjectID] = []
        var seen = Set<ManagedObjectID>()
        if !owner.objectID.isTemporaryID {
            var query = StoreQuery(entity: destination)
            query.whereClause = "\(destination.quotedColumns[slot]) = ?"
            query.arguments = [.integer(owner.objectID.key)]
            query.orderBy = "Z_PK"
            for row in try store(for: owner.objectID).fetchKeyedRows(
                query, keys: [SortKey(slot: slot, ascending: true, through: [])], in: queryGeneration)
            {
                // An object this context holds counts as it has it (deleted, or moved elsewhere).
                if let object = lookUp(row.id),
                    object.isDeletedState || (!object.isFaultState && object.values[slot] != target)
                {
                    continue
                }
                if seen.insert(row.id).inserted { result.append(row.id) }
            }
        }
        for object in inserted.objects
        where object.entity.isKindOf(entity: destination) && object.values[slot] == target {
            if seen.insert(object.objectID).inserted { result.append(object.objectID) }
        }
        for object in updated.values
        where object.entity.isKindOf(entity: destination) && !object.isDeletedState && !object.isFaultState
            && object.values[slot] == target
        {
            if seen.insert(object.objectID).inserted { result.append(object.objectID) }
        }
        return result
    }

    /// Whether `owner`'s to-many `relationship` would be read from the store (or the parent)
    /// when next accessed: false only when its members are known without I/O (prefetched, read
    /// once already, or an unsaved owner of a context on a coordinator, whose members are all
    /// in the context).
    func isFaultingMembers(of owner: ManagedObject, _ relationship: ResolvedRelationship) -> Bool {
        if prefetchedMembers[PrefetchKey(owner: owner.objectID, relationship: relationship.name)] != nil {
            return false
        }
        return !(owner.objectID.isTemporaryID && parent == nil)
    }

    /// The rows of the members of `ownerID`'s to-many `relationship`, as this context's source
    /// has them (the store, or the parent's current objects).
    func memberRows(ownerID: ManagedObjectID, _ relationship: ResolvedRelationship) throws -> [RowSnapshot] {
        if let parent {
            return fromParent(
                try parent.performAndWait { () throws -> RowsForChild in
                    // An owner inserted in this child is unknown to the parent: it has no members there.
                    let id = parent.resolvedFromChild(ownerID)
                    guard let owner = parent.lookUp(id) ?? (id.isTemporaryID ? nil : parent.object(with: id))
                    else { return parent.forChild([]) }
                    return parent.forChild(
                        try parent.members(of: owner, relationship).map {
                            RowSnapshot(id: $0.objectID, version: $0.version, values: $0.values)
                        })
                })
        }
        guard let slot = relationship.inverseSlot else { return [] }
        var query = StoreQuery(entity: relationship.destination)
        query.whereClause = "\(relationship.destination.quotedColumns[slot]) = ?"
        query.arguments = [.integer(ownerID.key)]
        query.orderBy = "Z_PK"
        return try store(for: ownerID).fetch(query, in: queryGeneration)
    }

    /// Applies the delete rules of `object`'s relationships, as its deletion begins: nullify
    /// clears the inverse on the related objects, cascade deletes them, deny and no action
    /// leave them (deny is checked when the context saves).
    func propagateDeletion(of object: ManagedObject) {
        for relationship in object.entity.resolvedRelationships {
            switch relationship.description.deleteRule {
            case .noAction, .deny:
                continue
            case .nullify:
                if relationship.isManyToMany {
                    // Each member leaves the other side (and becomes updated, as in Core Data).
                    for related in object.relatedObjects(relationship) { setLink(false, object, relationship, related) }
                    continue
                }
                guard let inverseSlot = relationship.inverseSlot else { continue }
                for related in object.relatedObjects(relationship) where !related.isDeletedState {
                    if case .object(let id) = related.readAttribute(inverseSlot), id == object.objectID {
                        related.writeAttribute(.null, slot: inverseSlot)
                    }
                }
            case .cascade:
                for related in object.relatedObjects(relationship)
                where !related.isDeletedState && related.managedObjectContext === self {
                    delete(related)
                }
            }
        }
    }

    /// Gives permanent IDs to the inserted objects that the saved objects' to-one relationships
    /// point at, and rewrites those references, so that the store can write their keys. A
    /// reference to a temporary ID that no object inserted here has (it was dropped, or belongs
    /// to another context) fails validation: it could never be saved.
    func makeReferencedIDsPermanent(_ groups: [[ManagedObject]]) throws {
        var referenced: [ManagedObjectID: [(object: ManagedObject, slot: Int)]] = [:]
        for object in groups.joined() {
            let entity = object.entity
            guard !entity.toOneSlots.isEmpty, object.values.count >= entity.storedProperties.count else { continue }
            for slot in entity.toOneSlots {
                if case .object(let id) = object.values[slot], id.isTemporaryID {
                    referenced[id, default: []].append((object, slot))
                }
            }
        }
        guard !referenced.isEmpty else { return }
        var failures: [ValidationFailure] = []
        var targets: [(id: ManagedObjectID, object: ManagedObject)] = []
        for (id, users) in referenced {
            if let target = lookUp(id), target.isInsertedState {
                targets.append((id, target))
            } else {
                failures += users.map { user in
                    ValidationFailure(
                        objectID: user.object.objectID, attribute: user.object.entity.storedProperties[user.slot].name,
                        reason: "relates to \(id), which is not inserted in this context, so it would never be saved")
                }
            }
        }
        if !failures.isEmpty { throw ManagedStoreError.validationFailed(failures) }
        try obtainPermanentIDs(for: targets.map(\.object))
        for (id, target) in targets {
            for (user, slot) in referenced[id] ?? [] { user.values[slot] = .object(target.objectID) }
        }
    }

    /// Fetches the destinations of `names` for `objects` in one query per relationship (see
    /// ``FetchRequest/relationshipKeyPathsForPrefetching``).
    func prefetch(_ names: [String], for objects: [ManagedObject], entity: EntityDescription) throws {
        for name in names {
            guard let relationship = entity.resolvedRelationship(named: name) else {
                throw ManagedStoreError.unsupportedFetch(
                    entity: entity.name, reason: "no relationship '\(name)' to prefetch")
            }
            let destination = relationship.destination
            if let slot = relationship.slot {
                var keys = Set<Int64>()
                for object in objects where !object.isFaultState {
                    guard case .object(let id) = object.values[slot], !id.isTemporaryID else { continue }
                    if lookUp(id).map({ $0.isFaultState }) ?? true { keys.insert(id.key) }
                }
                for row in try rows(of: destination, whereColumn: "Z_PK", in: Array(keys)) { _ = materialize(row) }
            } else if let join = relationship.join {
                try prefetchManyToMany(relationship, join: join, for: objects)
            } else if let inverse = relationship.inverseSlot {
                let owners = objects.filter { !$0.objectID.isTemporaryID }
                var members: [ManagedObjectID: [ManagedObject]] = Dictionary(
                    uniqueKeysWithValues: owners.map { ($0.objectID, []) })
                for row in try rows(
                    of: destination, whereColumn: destination.quotedColumns[inverse], in: owners.map(\.objectID.key))
                {
                    let member = materialize(row)
                    if case .object(let owner) = row.values[inverse] { members[owner, default: []].append(member) }
                }
                for (owner, list) in members { prefetchedMembers[PrefetchKey(owner: owner, relationship: name)] = list }
            }
        }
    }

    /// Prefetches a many-to-many relationship: its links in one query, then the members' rows
    /// not yet held, by key.
    private func prefetchManyToMany(
        _ relationship: ResolvedRelationship, join: JoinTable, for objects: [ManagedObject]
    )
        throws
    {
        let owners = objects.filter { !$0.objectID.isTemporaryID }
        guard !owners.isEmpty, parent == nil else { return }
        let destination = relationship.destination
        let sqliteStore = try store(for: destination)
        let pairs = try sqliteStore.joinedKeys(
            join, destination: destination, owners: owners.map(\.objectID.key), in: queryGeneration)
        let store = sqliteStore.persistentStore
        // Each member once (many owners share members), then the rows of those not loaded.
        var objects: [Int64: ManagedObject] = [:]
        var missing: [Int64] = []
        for (_, key) in pairs where objects[key] == nil {
            let object = self.object(with: ManagedObjectID(entity: destination, store: store, primaryKey: key))
            objects[key] = object
            if object.isFaultState { missing.append(key) }
        }
        for row in try rows(of: destination, whereColumn: "Z_PK", in: missing) { _ = materialize(row) }
        var members: [Int64: [ManagedObject]] = Dictionary(uniqueKeysWithValues: owners.map { ($0.objectID.key, []) })
        for (owner, key) in pairs { members[owner, default: []].append(objects[key]!) }
        for owner in owners {
            prefetchedMembers[PrefetchKey(owner: owner.objectID, relationship: relationship.name)] =
                members[owner.objectID.key] ?? []
        }
    }

    /// The stored rows of `entity` whose `column` is one of `keys`, a few hundred at a time.
    private func rows(
        of entity: EntityDescription, whereColumn column: String, in keys: [Int64]
    ) throws -> [RowSnapshot] {
        var rows: [RowSnapshot] = []
        for start in stride(from: 0, to: keys.count, by: 500) {
            let batch = keys[start..<min(keys.count, start + 500)]
            var query = StoreQuery(entity: entity)
            query.whereClause = "\(column) IN (\(Array(repeating: "?", count: batch.count).joined(separator: ", ")))"
            query.arguments = batch.map { .integer($0) }
            query.orderBy = "Z_PK"
            rows += try store(for: entity).fetch(query, in: queryGeneration)
        }
        return rows
    }

    /// Points the to-one relationships that hold a temporary ID of `permanent` at the permanent
    /// one (objects that took permanent IDs: by `obtainPermanentIDs(for:)` or a merge).
    func rewriteReferences(_ permanent: [ManagedObjectID: ManagedObjectID]) {
        guard !permanent.isEmpty, model.hasRelationships else { return }
        for object in inserted.objects + Array(updated.values) {
            let entity = object.entity
            guard !entity.toOneSlots.isEmpty, !object.isFaultState else { continue }
            for slot in entity.toOneSlots {
                if case .object(let id) = object.values[slot], let new = permanent[id] {
                    object.values[slot] = .object(new)
                }
            }
        }
    }
}
