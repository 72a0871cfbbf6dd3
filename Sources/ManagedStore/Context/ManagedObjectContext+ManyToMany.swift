import Foundation

/// Many-to-many relationships in a context: their members are the store's (or the parent's)
/// links with this context's unsaved links and unlinks applied (`ManyToManyChanges`); a save
/// writes those to the relationship's join table.
extension ManagedObjectContext {
    /// The members of `owner`'s many-to-many `relationship`, its unsaved changes applied;
    /// deleted objects are not members.
    func manyToManyMembers(of owner: ManagedObject, _ relationship: ResolvedRelationship) throws -> [ManagedObject] {
        let prefetched = prefetchedMembers[PrefetchKey(owner: owner.objectID, relationship: relationship.name)]
        if let prefetched, manyToMany.isEmpty {
            // No unsaved link anywhere: the prefetched members, less the deleted ones.
            return prefetched.filter { !$0.isDeletedState && $0.managedObjectContext === self }
        }
        var result: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        let changes = manyToMany.changes(of: owner, relationship)
        let unlinked = Set(changes.filter { !$0.linked }.map { ObjectIdentifier($0.object) })
        func add(_ object: ManagedObject) {
            guard !object.isDeletedState, object.managedObjectContext === self,
                !unlinked.contains(ObjectIdentifier(object)), seen.insert(ObjectIdentifier(object)).inserted
            else { return }
            result.append(object)
        }
        let key = PrefetchKey(owner: owner.objectID, relationship: relationship.name)
        if let prefetched {
            prefetched.forEach(add)
        } else if parent != nil {
            // The parent's members, its unsaved changes applied (as for any to-many).
            let fired = try memberRows(ownerID: owner.objectID, relationship).map { materialize($0) }
            fired.forEach(add)
            prefetchedMembers[key] = fired
        } else if !owner.objectID.isTemporaryID, let join = relationship.join {
            let destination = relationship.destination
            var query = StoreQuery(entity: destination)
            query.whereClause =
                "Z_PK IN (SELECT \(join.otherColumn) FROM \(join.quotedName) WHERE \(join.ownColumn) = ?)"
            query.arguments = [.integer(owner.objectID.key)]
            query.orderBy = "Z_PK"
            // The fault fired: its members are known until a refresh, save, merge or reset.
            let fired = try store(for: owner.objectID).fetch(query, in: queryGeneration).map { materialize($0) }
            fired.forEach(add)
            prefetchedMembers[key] = fired
        }
        for change in changes where change.linked { add(change.object) }
        return result
    }

    /// The IDs of the members of `owner`'s many-to-many `relationship`, without making
    /// objects of the stored ones this context does not hold.
    func manyToManyMemberIDs(of owner: ManagedObject, _ relationship: ResolvedRelationship) throws -> [ManagedObjectID]
    {
        guard parent == nil, !owner.objectID.isTemporaryID, let join = relationship.join,
            prefetchedMembers[PrefetchKey(owner: owner.objectID, relationship: relationship.name)] == nil
        else {
            return try manyToManyMembers(of: owner, relationship).map(\.objectID)
        }
        let changes = manyToMany.changes(of: owner, relationship)
        let unlinked = Set(changes.filter { !$0.linked }.map { ObjectIdentifier($0.object) })
        var result: [ManagedObjectID] = []
        var seen = Set<ManagedObjectID>()
        let store = try store(for: owner.objectID)
        let pairs = try store.joinedKeys(
            join, destination: relationship.destination, owners: [owner.objectID.key], in: queryGeneration)
        for (_, key) in pairs {
            let id = ManagedObjectID(entity: relationship.destination, store: store.persistentStore, primaryKey: key)
            if let object = lookUp(id), object.isDeletedState || unlinked.contains(ObjectIdentifier(object)) {
                continue
            }
            if seen.insert(id).inserted { result.append(id) }
        }
        for change in changes
        where change.linked && !change.object.isDeletedState
            && change.object.managedObjectContext === self
        {
            if seen.insert(change.object.objectID).inserted { result.append(change.object.objectID) }
        }
        return result
    }

    /// The many-to-many links of `owner`, a saved object being deleted, that its deletion
    /// removes without recording them (those to objects deleted with it): the store's, with
    /// the unsaved changes applied, deleted members kept. An undo after the deletion was saved
    /// links them again.
    func severedLinks(of owner: ManagedObject) throws -> [(relationship: ResolvedRelationship, other: ManagedObject)] {
        guard parent == nil, !owner.objectID.isTemporaryID else { return [] }
        var links: [(relationship: ResolvedRelationship, other: ManagedObject)] = []
        for relationship in owner.entity.resolvedRelationships where relationship.isManyToMany {
            guard let join = relationship.join else { continue }
            let changes = manyToMany.changes(of: owner, relationship)
            let unlinked = Set(changes.filter { !$0.linked }.map { ObjectIdentifier($0.object) })
            let store = try store(for: owner.objectID)
            var seen = Set<ObjectIdentifier>()
            let pairs = try store.joinedKeys(
                join, destination: relationship.destination, owners: [owner.objectID.key], in: queryGeneration)
            let stored = pairs.map {
                object(
                    with: ManagedObjectID(
                        entity: relationship.destination, store: store.persistentStore, primaryKey: $0.1))
            }
            for other in stored + changes.filter(\.linked).map(\.object)
            where !unlinked.contains(ObjectIdentifier(other)) && seen.insert(ObjectIdentifier(other)).inserted {
                links.append((relationship, other))
            }
        }
        return links
    }

    /// Sets `owner`'s many-to-many `relationship` to `objects`: links the new ones and unlinks
    /// the ones no longer wanted (both sides see it).
    func setManyToManyMembers(_ objects: [ManagedObject], of owner: ManagedObject, _ relationship: ResolvedRelationship)
    {
        let current: [ManagedObject]
        do {
            current = try manyToManyMembers(of: owner, relationship)
        } catch {
            preconditionFailure(
                "ManagedStore: could not read relationship '\(relationship.name)' of \(owner.objectID): \(error)")
        }
        let wanted = Set(objects.map(ObjectIdentifier.init))
        let present = Set(current.map(ObjectIdentifier.init))
        for member in current where !wanted.contains(ObjectIdentifier(member)) {
            setLink(false, owner, relationship, member)
        }
        for member in objects where !present.contains(ObjectIdentifier(member)) {
            setLink(true, owner, relationship, member)
        }
    }

    /// Links (or unlinks) `object` and `other` by `object`'s many-to-many `relationship`; both
    /// become updated (an inserted one stays inserted), as in Core Data.
    func setLink(_ linked: Bool, _ object: ManagedObject, _ relationship: ResolvedRelationship, _ other: ManagedObject)
    {
        // Only a change is linked or unlinked here: the state before was the other.
        if undoManagerStorage != nil { eventLinks.append((object, relationship, other, !linked)) }
        eventMemberChanges.append((ObjectIdentifier(object), relationship.name, other.objectID, linked))
        if let inverse = relationship.resolvedInverse {
            eventMemberChanges.append((ObjectIdentifier(other), inverse.name, object.objectID, linked))
        }
        manyToMany.set(linked, object, relationship, other)
        noteLinkChange(object)
        noteLinkChange(other)
    }

    private func noteLinkChange(_ object: ManagedObject) {
        if object.isInsertedState {
            if object.insertionAnnounced { pendingUpdated[ObjectIdentifier(object)] = object }
            return
        }
        guard !object.isDeletedState else { return }
        if object.isFaultState { fulfillFault(object) }
        noteUpdated(object)
    }

    /// The link changes a save writes: those whose objects are both still in this context (an
    /// inserted object deleted is not). To the store, not those of deleted objects (the
    /// deletion removes their links); to a parent, those too, so that the parent applies them
    /// before the deletions (a cascade there must not reach an object unlinked here).
    func linksToSave(includingDeleted: Bool = false) -> [SaveRequest.Link] {
        manyToMany.all.compactMap { change in
            guard let join = change.relationship.join, change.owner.managedObjectContext === self,
                change.member.managedObjectContext === self,
                includingDeleted || (!change.owner.isDeletedState && !change.member.isDeletedState)
            else { return nil }
            return SaveRequest.Link(
                table: join, owner: change.owner.objectID, member: change.member.objectID, linked: change.linked)
        }
    }
}
