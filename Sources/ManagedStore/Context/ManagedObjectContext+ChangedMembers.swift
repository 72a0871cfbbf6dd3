import Foundation

/// The changes of a to-many relationship's members, for ``ManagedObject/changedValues()``,
/// ``ManagedObject/committedValues(forKeys:)`` and ``ManagedObject/changedValuesForCurrentEvent()``:
/// Core Data counts a relationship among an object's persistent properties, a to-many's value
/// being the set of its members.
extension ManagedObjectContext {
    /// The IDs of `owner`'s members by `relationship` as last saved or fetched: the store's (or
    /// the parent's), without this context's changes. None for an unsaved owner.
    func committedMemberIDs(
        of owner: ManagedObject, _ relationship: ResolvedRelationship
    ) throws -> Set<ManagedObjectID> {
        if owner.objectID.isTemporaryID && parent == nil { return [] }
        if parent != nil {
            return Set(try memberRows(ownerID: owner.objectID, relationship).map(\.id))
        }
        let store = try store(for: owner.objectID)
        if let join = relationship.join {
            let destination = relationship.destination
            return Set(
                try store.joinedKeys(join, destination: destination, owners: [owner.objectID.key], in: queryGeneration)
                    .map { ManagedObjectID(entity: destination, store: store.persistentStore, primaryKey: $0.member) })
        }
        guard let slot = relationship.inverseSlot else { return [] }
        let destination = relationship.destination
        var query = StoreQuery(entity: destination)
        query.whereClause = "\(destination.quotedColumns[slot]) = ?"
        query.arguments = [.integer(owner.objectID.key)]
        return Set(
            try store.fetchKeyedRows(
                query, keys: [SortKey(slot: slot, ascending: true, through: [])], in: queryGeneration
            ).map(\.id))
    }

    /// The IDs of `owner`'s members by `relationship` now, when this context changed them
    /// since they were last saved or fetched (an unsaved owner's, when it has any); nil when it
    /// did not. Found without firing a fault: from the context's own changes (the members'
    /// to-ones, the many-to-many links), then the IDs.
    func changedMemberIDs(of owner: ManagedObject, _ relationship: ResolvedRelationship) throws -> Set<ManagedObjectID>?
    {
        if owner.isInsertedState {
            let members = Set(try memberIDs(of: owner, relationship))
            return members.isEmpty ? nil : members
        }
        guard touches(owner, relationship) else { return nil }
        let current = Set(try memberIDs(of: owner, relationship))
        // An ordered relationship whose members only changed places changed too (Core Data's).
        if reorders(owner, relationship) { return current }
        return current == (try committedMemberIDs(of: owner, relationship)) ? nil : current
    }

    /// Whether a member of `owner`'s ordered `relationship` has another place than it was saved with.
    private func reorders(_ owner: ManagedObject, _ relationship: ResolvedRelationship) -> Bool {
        guard let position = relationship.memberPositionSlot, let slot = relationship.inverseSlot else { return false }
        let target = AttributeValue.object(owner.objectID)
        return updated.values.contains { object in
            object.entity.isKindOf(entity: relationship.destination) && !object.isFaultState
                && object.values.indices.contains(position) && object.values[slot] == target
                && object.committedValues.indices.contains(position)
                && object.committedValues[position] != object.values[position]
        }
    }

    /// Whether a change held in this context adds to or takes from `owner`'s members.
    private func touches(_ owner: ManagedObject, _ relationship: ResolvedRelationship) -> Bool {
        if relationship.isManyToMany { return !manyToMany.changes(of: owner, relationship).isEmpty }
        guard let slot = relationship.inverseSlot else { return false }
        let target = AttributeValue.object(owner.objectID)
        let destination = relationship.destination
        func moved(_ object: ManagedObject) -> Bool {
            guard object.entity.isKindOf(entity: destination), !object.isFaultState,
                object.values.indices.contains(slot)
            else {
                return false
            }
            let before = object.committedValues.indices.contains(slot) ? object.committedValues[slot] : .null
            return before != object.values[slot] && (before == target || object.values[slot] == target)
        }
        return inserted.objects.contains { $0.entity.isKindOf(entity: destination) && $0.values[slot] == target }
            || updated.values.contains(where: moved) || reorders(owner, relationship)
            || deleted.values.contains { object in
                object.entity.isKindOf(entity: destination) && object.committedValues.indices.contains(slot)
                    && object.committedValues[slot] == target
            }
    }

    /// `owner`'s members by `relationship` before the current event (since the last
    /// objectsDidChange), when the event changed them; nil when it did not. From the members
    /// now, less those the event added, plus those it took away.
    func memberIDsBeforeEvent(
        of owner: ManagedObject, _ relationship: ResolvedRelationship
    ) throws -> Set<ManagedObjectID>? {
        var added = Set<ManagedObjectID>(), removed = Set<ManagedObjectID>()
        if relationship.isManyToMany {
            for change in eventMemberChanges
            where change.owner == ObjectIdentifier(owner) && change.relationship == relationship.name {
                if change.linked {
                    if removed.remove(change.member) == nil { added.insert(change.member) }
                } else if added.remove(change.member) == nil {
                    removed.insert(change.member)
                }
            }
        } else if let slot = relationship.inverseSlot {
            let target = AttributeValue.object(owner.objectID)
            let destination = relationship.destination
            for object in inserted.unnotified
            where object.entity.isKindOf(entity: destination) && object.values[slot] == target {
                added.insert(object.objectID)
            }
            for object in pendingUpdated.values
            where object.entity.isKindOf(entity: destination) && !object.isDeletedState {
                guard let before = object.eventValues, before.indices.contains(slot) else { continue }
                if before[slot] != target && object.values[slot] == target { added.insert(object.objectID) }
                if before[slot] == target && object.values[slot] != target { removed.insert(object.objectID) }
            }
            for object in pendingDeleted.values where object.entity.isKindOf(entity: destination) {
                let before = object.eventValues ?? object.values
                if before.indices.contains(slot) && before[slot] == target { removed.insert(object.objectID) }
            }
        }
        guard !added.isEmpty || !removed.isEmpty else { return nil }
        return Set(try memberIDs(of: owner, relationship)).subtracting(added).union(removed)
    }
}
