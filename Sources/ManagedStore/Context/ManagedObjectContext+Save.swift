import Foundation

extension ManagedObjectContext {
    /// Saves the context's changes: to the store in one transaction for a context on a
    /// coordinator, or into the parent context (no I/O) for a child. A save with no changes
    /// does nothing.
    ///
    /// Posts ``willSaveNotification`` before and ``didSaveNotification`` after. Throws
    /// ``ManagedStoreError/validationFailed(_:)`` with every failure of every object's
    /// ``ManagedObject/validateForInsert()``, ``ManagedObject/validateForUpdate()`` or
    /// ``ManagedObject/validateForDelete()`` (a nil where the model forbids it, a broken
    /// ``ValidationRule``, an override's own), and
    /// ``ManagedStoreError/saveConflicts(constraint:optimisticLocking:)`` for conflicts the
    /// ``mergePolicy`` does not resolve; the context keeps its changes when a save throws.
    public func save() throws {
        checkQueue()
        precondition(!isSaving, "ManagedStore: save() was called on context \(self) while it was saving")
        guard hasChanges else { return }
        isSaving = true
        defer { isSaving = false }
        try saveChanges()
        // The undo stack carries on (Core Data's does: only rollback() and reset() clear it);
        // an undo after a save leaves changes to save.
        registry.sweepIfGrown()
    }

    private func saveChanges() throws {
        let announced = postPendingChanges()
        NotificationCenter.default.post(name: Self.willSaveNotification, object: self)

        let insertedObjects = inserted.objects
        let updatedObjects = updated.values.filter {
            ($0.hasValueChanges || (!manyToMany.isEmpty && !manyToMany.changedRelationships(of: $0).isEmpty))
                && !$0.isDeletedState
        }
        .sorted { $0.objectID.key < $1.objectID.key }
        // An inaccessible fault made deleted has no row to delete, and no validation.
        let deletedObjects = deleted.values.filter { inaccessible[ObjectIdentifier($0)] == nil }
        discardInaccessible()
        for object in insertedObjects { object.willSave() }
        for object in updatedObjects { object.willSave() }
        for object in deletedObjects { object.willSave() }
        // Objects whose only changes are of transient attributes: validated, not written.
        let transientlyChanged =
            updatedObjects.count == updated.count
            ? []
            : updated.values.filter {
                !$0.entity.transientAttributes.isEmpty && !$0.isDeletedState && !$0.hasValueChanges
                    && !$0.isFaultState
            }
        for object in transientlyChanged { object.willSave() }
        try validate(insertedObjects, updatedObjects + transientlyChanged, deleting: deletedObjects)
        guard !insertedObjects.isEmpty || !updatedObjects.isEmpty || !deletedObjects.isEmpty else {
            // Only attributes set back to their saved values: nothing to write or announce.
            clearChanges()
            return
        }

        let changes: ContextSaveChanges
        if let parent {
            changes = try push(inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects, to: parent)
        } else {
            changes = try write(inserted: insertedObjects, updated: updatedObjects, deleted: deletedObjects)
        }
        clearChanges()
        if parent == nil { advanceQueryGeneration() }
        for object in insertedObjects where owns(object) { object.didSave() }
        for object in updatedObjects where owns(object) { object.didSave() }
        // Deleted ones too: "the sense of 'save' in the method name is that of a database commit
        // statement and so applies to deletions as well as to updates" (NSManagedObject.didSave()).
        for object in deletedObjects { object.didSave() }
        // An inserted object that lost a uniqueness conflict to another left the context. When
        // this save's objectsDidChange announced every inserted object (they were all inserted
        // in this event) and none left, its set is didSave's: handed on, not hashed again.
        let insertedSet =
            announced.count == insertedObjects.count && insertedObjects.allSatisfy({ owns($0) })
            ? announced : Set(insertedObjects.filter { owns($0) })
        postDidSave(changes, inserted: insertedSet, updated: updatedObjects, deleted: deletedObjects)
    }

    /// Whether `object` belongs to this context (without loading its weak reference).
    @inline(__always)
    func owns(_ object: ManagedObject) -> Bool {
        object.link === link
    }

    private func clearChanges() {
        prefetchedMembers.removeAll()
        manyToMany.removeAll()
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        pendingUpdated.removeAll()
        pendingDeleted.removeAll()
    }

    /// Runs Core Data's validation methods on each object the save writes, and throws every
    /// failure of every object at once (``ManagedStoreError/validationFailed(_:)``).
    private func validate(
        _ insertedObjects: [ManagedObject], _ updatedObjects: [ManagedObject], deleting deletedObjects: [ManagedObject]
    ) throws {
        var failures: [ValidationFailure] = []
        func run(_ object: ManagedObject, _ check: (ManagedObject) -> () throws -> Void) {
            do {
                try check(object)()
            } catch {
                failures += ValidationFailure.failures(from: error, of: object.objectID, attribute: nil)
            }
        }
        for object in insertedObjects { run(object, ManagedObject.validateForInsert) }
        for object in updatedObjects { run(object, ManagedObject.validateForUpdate) }
        for object in deletedObjects { run(object, ManagedObject.validateForDelete) }
        if !failures.isEmpty { throw ManagedStoreError.validationFailed(failures) }
    }

    /// Writes the changes to the store and brings the objects up to date with what was written.
    private func write(
        inserted insertedObjects: [ManagedObject], updated updatedObjects: [ManagedObject],
        deleted deletedObjects: [ManagedObject]
    ) throws -> ContextSaveChanges {
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        var request = SaveRequest(mergePolicy: mergePolicy)
        (request.transactionAuthor, request.contextName) = settings.withLock { ($0.transactionAuthor, $0.name) }
        // The rows are read in one pass that also looks for keys naming objects not saved yet
        // (rare): only then are their permanent IDs obtained and the rows read again.
        var referencesUnsaved = false
        let relationships = model.hasRelationships
        func readRows() {
            request.inserts = insertedObjects.map {
                if relationships && !referencesUnsaved { referencesUnsaved = $0.referencesTemporaryID }
                return SaveRequest.Insert(objectID: $0.objectID, values: $0.values)
            }
            request.updates = updatedObjects.map {
                if relationships && !referencesUnsaved { referencesUnsaved = $0.referencesTemporaryID }
                return SaveRequest.Update(
                    objectID: $0.objectID, values: $0.values, committed: $0.committedValues, version: $0.version,
                    changedRelationships: manyToMany.isEmpty ? [] : manyToMany.changedRelationships(of: $0))
            }
        }
        readRows()
        if referencesUnsaved {
            try makeReferencedIDsPermanent([insertedObjects, updatedObjects])
            readRows()
        }
        request.links = manyToMany.isEmpty ? [] : linksToSave()
        request.deletes = deletedObjects.map { SaveRequest.Delete(objectID: $0.objectID, version: $0.version) }
        let stores = coordinator.openStores()
        let outcome: SaveOutcome
        if stores.count == 1 && stores[0].model.configurationName == nil {
            try request.checkIDs(belongTo: stores[0])
            outcome = try stores[0].save(request)
        } else {
            // Several stores: each object is written to its entity's store, all or none.
            let saves = try StoreSaves(request, storeOf: coordinator.store(for:))
            outcome = saves.merged(try SQLiteStore.save(saves.parts))
        }

        for (object, fate) in zip(insertedObjects, outcome.insertFates) {
            if case .inserted(let index) = fate {
                let row = outcome.insertedRows[index]
                object.isInsertedState = false
                retire(object.objectID, for: row.id)
                object.objectID = row.id
                adopt(row, into: object)
                registry.addSaved(object)
            } else {
                apply(fate, to: object)
            }
        }
        for (object, fate) in zip(updatedObjects, outcome.updateFates) { apply(fate, to: object) }
        for (object, fate) in zip(deletedObjects, outcome.deleteFates) { apply(fate, to: object) }
        let changes = ContextSaveChanges(
            insertedRows: outcome.insertedRows, updatedRows: outcome.updatedRows,
            deletedObjectIDs: outcome.deletedIDs, insertedTemporaryIDs: outcome.insertedTemporaryIDs,
            adoptedIDs: outcome.adoptedIDs)
        coordinator.relay(changes, from: self)
        return changes
    }

    /// Brings an object up to date with what the save did to it.
    private func apply(_ fate: SaveOutcome.Fate, to object: ManagedObject) {
        switch fate {
        case .inserted:
            preconditionFailure("ManagedStore: an inserted row without its object")
        case .row(let row):
            if row.id != object.objectID, let other = registry[row.id], other !== object {
                // Another object here already stands for the row: it takes the values, and this
                // one leaves the context.
                evict(object)
                adopt(row, into: other)
            } else if object.isInsertedState {
                // The save's insertion list is cleared after this; the object is registered now.
                object.isInsertedState = false
                retire(object.objectID, for: row.id)
                object.objectID = row.id
                adopt(row, into: object)
                register(object)
            } else {
                reassign(object, to: row.id)
                adopt(row, into: object)
            }
        case .deleted:
            evict(object)
            object.isDeletedState = true
        case .superseded:
            evict(object)
        }
    }

    /// Pushes the changes into the parent context; the objects here become clean relative to it.
    private func push(
        inserted insertedObjects: [ManagedObject], updated updatedObjects: [ManagedObject],
        deleted deletedObjects: [ManagedObject], to parent: ManagedObjectContext
    ) throws -> ContextSaveChanges {
        let insertedRows = insertedObjects.map { RowSnapshot(id: $0.objectID, version: $0.version, values: $0.values) }
        let updatedRows = updatedObjects.map { RowSnapshot(id: $0.objectID, version: $0.version, values: $0.values) }
        let deletedIDs = deletedObjects.map(\.objectID)
        let links = manyToMany.isEmpty ? [] : linksToSave(includingDeleted: true)
        try parent.performAndWait { () throws -> Void in
            try parent.absorbChildSave(inserted: insertedRows, updated: updatedRows, deleted: deletedIDs, links: links)
        }
        for object in insertedObjects {
            object.isInsertedState = false
            object.committedValues = object.values
            register(object)
        }
        for object in updatedObjects { object.committedValues = object.values }
        for object in deletedObjects {
            evict(object)
            object.isDeletedState = true
        }
        return ContextSaveChanges(insertedRows: insertedRows, updatedRows: updatedRows, deletedObjectIDs: deletedIDs)
    }

    /// Takes in a child's save: its insertions, updates and deletions become this context's
    /// unsaved changes.
    func absorbChildSave(
        inserted insertedRows: [RowSnapshot], updated updatedRows: [RowSnapshot],
        deleted deletedIDs: [ManagedObjectID], links: [SaveRequest.Link] = []
    ) throws {
        // The child may name objects by temporary IDs they had here before this context saved.
        hasChildren = true
        for row in insertedRows {
            let values = resolvedFromChild(row.values)
            if let existing = lookUp(row.id) {
                // A deletion the child saved here and then undid: deleted no more.
                if existing.isDeletedState { insert(existing, awakening: false) }
                apply(values, to: existing)
                continue
            }
            let object = row.id.entity.managedObjectClass.init(entity: row.id.entity, insertInto: nil)
            object.objectID = row.id
            object.values = values
            object.managedObjectContext = self
            inserted.add(object)
        }
        for row in updatedRows {
            let id = resolvedFromChild(row.id)
            let object = self.object(with: id)
            if object.isFaultState {
                guard let snapshot = try snapshot(for: id) else { throw ManagedStoreError.objectNotFound(id) }
                fill(object, with: snapshot)
            }
            apply(resolvedFromChild(row.values), to: object)
        }
        // The links before the deletions, whose delete rules read them.
        for link in links {
            let owner = object(with: resolvedFromChild(link.owner))
            let member = object(with: resolvedFromChild(link.member))
            guard let relationship = owner.entity.resolvedRelationships.first(where: { $0.join == link.table })
            else { continue }
            setLink(link.linked, owner, relationship, member)
        }
        for childID in deletedIDs {
            let id = resolvedFromChild(childID)
            let object = self.object(with: id)
            if object.isFaultState {
                guard let snapshot = try snapshot(for: id) else {
                    evict(object)
                    continue
                }
                fill(object, with: snapshot)
            }
            delete(object)
        }
    }

    private func apply(_ values: [AttributeValue], to object: ManagedObject) {
        // A derived attribute is the store's to compute: the parent keeps the value it has.
        for slot in values.indices
        where object.values[slot] != values[slot] && !object.entity.derivedSlots.contains(slot) {
            object.writeAttribute(values[slot], slot: slot)
        }
    }

    /// Sets an object's values to a saved or merged row, keeping none of its older state.
    func adopt(_ row: RowSnapshot, into object: ManagedObject) {
        object.values = row.values
        object.committedValues = row.values
        object.version = row.version
        object.isFaultState = false
    }

    /// Posts didSave (with the saved objects, as Core Data's does) and then didSaveObjectIDs
    /// (with their IDs only); both carry the ``ContextSaveChanges`` a merge needs.
    private func postDidSave(
        _ changes: ContextSaveChanges, inserted insertedObjects: Set<ManagedObject>,
        updated updatedObjects: [ManagedObject], deleted deletedObjects: [ManagedObject]
    ) {
        let ids = changes.objectIDsUserInfo
        var objects = ids
        objects[NotificationKey.insertedObjects.rawValue] = insertedObjects
        objects[NotificationKey.updatedObjects.rawValue] = Set(updatedObjects)
        objects[NotificationKey.deletedObjects.rawValue] = Set(deletedObjects)
        NotificationCenter.default.post(name: Self.didSaveNotification, object: self, userInfo: objects)
        NotificationCenter.default.post(name: Self.didSaveObjectIDsNotification, object: self, userInfo: ids)
        relayToChildren(changes)
    }

    /// Hands a save or merge of this context to its children that merge automatically.
    func relayToChildren(_ changes: ContextSaveChanges) {
        let children = settings.withLock { settings -> [ManagedObjectContext] in
            settings.children.removeAll { $0.context == nil }
            return settings.children.compactMap(\.context)
        }
        for child in children where child.automaticallyMergesChangesFromParent {
            child.perform { child.mergeChanges(fromContextDidSave: changes) }
        }
    }
}
