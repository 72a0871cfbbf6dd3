import Foundation

extension ManagedObjectContext {
    /// Merges another context's save, given its ``didSaveNotification`` (call on this
    /// context's queue; to cross queues, take ``ContextSaveChanges`` out of the notification).
    public func mergeChanges(fromContextDidSave notification: Notification) {
        guard let changes = ContextSaveChanges(notification) else {
            preconditionFailure(
                "ManagedStore: mergeChanges(fromContextDidSave:) was given a \(notification.name.rawValue) notification"
            )
        }
        mergeChanges(fromContextDidSave: changes)
    }

    /// Merges another context's save: registered objects take the saved values (keeping their
    /// own unsaved changes on top), objects whose rows were deleted leave the context, objects
    /// known here by a temporary ID take their permanent one, and inserted objects are
    /// registered here as faults. Posts ``objectsDidChangeNotification`` listing them
    /// (inserted, updated, deleted), as Core Data does. A context's save carries its values, so
    /// merging it needs no I/O; changes known by ID only (``PersistentHistoryTransaction``,
    /// batch requests) read the objects this context holds again.
    public func mergeChanges(fromContextDidSave changes: ContextSaveChanges) {
        checkQueue()
        prefetchedMembers.removeAll()
        advanceQueryGeneration()
        if !inserted.isEmpty
            || (!registry.isEmpty && changes.insertedTemporaryIDs.contains { $0.map { registry[$0] != nil } ?? false })
        {
            var reassigned: [ManagedObjectID: ManagedObjectID] = [:]
            for (temporary, permanent) in changes.temporaryIDPairs {
                if let object = lookUp(temporary) {
                    reassign(object, to: permanent)
                    reassigned[temporary] = permanent
                }
            }
            rewriteReferences(reassigned)
        }
        var refreshed: [ManagedObject] = []
        // As in Core Data ("faults in any newly-inserted objects"), another context's inserted
        // objects come into this one as faults, and objectsDidChange lists them as inserted
        // (live result lists depend on it). They are registered unindexed until something looks
        // one up, and let go of at the end of the block when nothing here holds them (a view
        // context merges every row an import stores: this is on its path).
        var newIDs: [ManagedObjectID] = []
        if changes.carriesValues {
            newIDs.reserveCapacity(changes.insertedRows.count)
            if registry.isEmpty {
                newIDs = changes.insertedRows.map(\.id)
            } else {
                for row in changes.insertedRows {
                    if let object = registry[row.id] {
                        if object.hasCachedRow { forgetCachedRow(of: object) }
                        guard !object.isFaultState, !object.isInsertedState else { continue }
                        refresh(object, to: row)
                        refreshed.append(object)
                    } else {
                        newIDs.append(row.id)
                    }
                }
            }
        } else {
            // Changes known by ID only (history, batch requests): objects held here are read
            // again from the store.
            for id in changes.insertedObjectIDs {
                if let object = registry[id] {
                    if rereadFromStore(object) { refreshed.append(object) }
                } else {
                    newIDs.append(id)
                }
            }
        }
        var mergedInserts = Set<ManagedObject>(minimumCapacity: newIDs.count)
        for id in newIDs {
            let object = id.entity.managedObjectClass.init(entity: id.entity, insertInto: nil)
            object.objectID = id
            object.values = []
            object.isFaultState = true
            object.managedObjectContext = self
            registry.addSaved(object)
            mergedInserts.insert(object)
        }
        if !registry.isEmpty {
            if changes.carriesValues {
                for row in changes.updatedRows {
                    guard let object = registry[row.id] else { continue }
                    if object.hasCachedRow { forgetCachedRow(of: object) }
                    guard !object.isFaultState, !object.isInsertedState else { continue }
                    refresh(object, to: row)
                    refreshed.append(object)
                }
            } else {
                for id in changes.updatedObjectIDs {
                    guard let object = registry[id] else { continue }
                    if rereadFromStore(object) { refreshed.append(object) }
                }
            }
        }
        var removed: [ManagedObject] = []
        for id in changes.deletedObjectIDs {
            guard let object = registry[id] else { continue }
            evict(object)
            object.isDeletedState = true
            removed.append(object)
        }
        var info: [String: Any] = [:]
        if !refreshed.isEmpty {
            info[NotificationKey.updatedObjects.rawValue] = Set(refreshed)
            info[NotificationKey.refreshedObjects.rawValue] = Set(refreshed)
        }
        if !removed.isEmpty { info[NotificationKey.deletedObjects.rawValue] = Set(removed) }
        if !mergedInserts.isEmpty { info[NotificationKey.insertedObjects.rawValue] = mergedInserts }
        if !changes.insertedObjectIDs.isEmpty {
            info[NotificationKey.mergedInsertedObjectIDs.rawValue] = changes.insertedObjectIDs
        }
        if !info.isEmpty {
            NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self, userInfo: info)
        }
        relayToChildren(changes)
    }

    /// Reads a held object's row again (keeping its unsaved changes on top), for a merge of
    /// changes known by ID only; true when the object took new values. A fault stays a fault.
    private func rereadFromStore(_ object: ManagedObject) -> Bool {
        if object.hasCachedRow { forgetCachedRow(of: object) }
        guard !object.isFaultState, !object.isInsertedState, !object.isDeletedState else { return false }
        guard let row = try? snapshot(for: object.objectID) else { return false }
        guard row.version != object.version || row.values != object.committedValues else { return false }
        refresh(object, to: row)
        return true
    }

    /// Sets an object's committed values to `row`, keeping its unsaved changes on top.
    func refresh(_ object: ManagedObject, to row: RowSnapshot) {
        var values = row.values
        if !object.committedValues.isEmpty {
            for slot in values.indices where object.values[slot] != object.committedValues[slot] {
                values[slot] = object.values[slot]
            }
        }
        object.values = values
        object.committedValues = row.values
        object.version = row.version
    }

    /// Brings an object up to date with its store (or parent). With `mergeChanges: false` it
    /// becomes a fault and its unsaved changes are dropped; with `true` it takes the current
    /// values and keeps its unsaved changes on top. Inserted objects are left as they are.
    /// An object that becomes a fault is told before and after (``ManagedObject/willTurnIntoFault()``,
    /// ``ManagedObject/didTurnIntoFault()``).
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue()
        prefetchedMembers.removeAll()
        guard object.managedObjectContext === self, !object.isInsertedState else { return }
        if !mergeChanges {
            manyToMany.remove(involving: object)
            let key = ObjectIdentifier(object)
            updated[key] = nil
            pendingUpdated[key] = nil
            if object.isDeletedState { return }
            // A fault stays one, and is not told again (Core Data's willTurnIntoFault and
            // didTurnIntoFault come in pairs around a real change).
            let wasFault = object.isFaultState
            if !wasFault { object.willTurnIntoFault() }
            object.values = []
            object.committedValues = []
            object.transientValues = object.entity.transientDefaults
            object.eventTransientValues = nil
            object.isFaultState = true
            if !wasFault { object.didTurnIntoFault() }
            return
        }
        if object.hasCachedRow { forgetCachedRow(of: object) }
        if object.isFaultState { return }
        guard let row = try? snapshot(for: object.objectID) else { return }
        refresh(object, to: row)
    }

    /// Refreshes every registered object, keeping unsaved changes.
    public func refreshAllObjects() {
        checkQueue()
        prefetchedMembers.removeAll()
        for object in registry.allObjects {
            refresh(object, mergeChanges: object.hasChanges)
        }
    }

    /// Drops every unsaved change: inserted objects leave the context, updated ones take back
    /// their committed values, deleted ones are restored.
    public func rollback() {
        checkQueue()
        for object in inserted.objects { object.managedObjectContext = nil }
        for object in updated.values where !object.committedValues.isEmpty { object.values = object.committedValues }
        // What the current event recorded of them goes too (the undo stack is cleared below).
        for object in Array(updated.values) + Array(pendingUpdated.values) {
            object.eventValues = nil
            object.eventTransientValues = nil
        }
        for object in deleted.values {
            object.isDeletedState = false
            if !object.committedValues.isEmpty { object.values = object.committedValues }
        }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        pendingUpdated.removeAll()
        pendingDeleted.removeAll()
        manyToMany.removeAll()
        // Core Data's rollback "removes everything from the undo stack".
        eventLinks.removeAll()
        eventMemberChanges.removeAll()
        eventUndeleted.removeAll()
        undoManagerStorage?.removeAllActions()
    }

    /// Forgets every object and change: the context is as new. Objects it held must not be
    /// used again. Posts ``objectsDidChangeNotification`` with ``NotificationKey/invalidatedAllObjects``.
    public func reset() {
        checkQueue()
        prefetchedMembers.removeAll()
        for object in registry.allObjects { object.managedObjectContext = nil }
        for object in inserted.objects { object.managedObjectContext = nil }
        registry.removeAll()
        manyToMany.removeAll()
        eventLinks.removeAll()
        eventMemberChanges.removeAll()
        eventUndeleted.removeAll()
        undoManagerStorage?.removeAllActions()
        advanceQueryGeneration()
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        pendingUpdated.removeAll()
        pendingDeleted.removeAll()
        retiredTemporaryIDs.removeAll()
        temporaryIDsByPermanent.removeAll()
        inaccessible.removeAll()
        NotificationCenter.default.post(
            name: Self.objectsDidChangeNotification, object: self,
            userInfo: [NotificationKey.invalidatedAllObjects.rawValue: true])
    }
}
