import Foundation

/// Undo and redo of a context's changes (Core Data's `undoManager`, `undo()`, `redo()`): each
/// event's changes (up to ``ManagedObjectContext/processPendingChanges()``) are recorded as one
/// action that takes the objects back to how they were when the event began.
extension ManagedObjectContext {
    /// The undo manager that records this context's changes; nil (the default, as in Core
    /// Data: "The default value is nil") records nothing and costs nothing.
    public var undoManager: UndoManager? {
        get { undoManagerStorage }
        set {
            checkQueue()
            if let old = undoManagerStorage, old !== newValue {
                processPendingChanges()
                old.detach(self)
            }
            undoManagerStorage = newValue
            newValue?.attach(self)
        }
    }

    /// Undoes the latest group of changes of ``undoManager`` (Core Data: "reverse the latest
    /// uncommitted changes applied to objects in the object graph").
    public func undo() {
        checkQueue()
        undoManagerStorage?.undo()
    }

    /// Redoes the latest undone group.
    public func redo() {
        checkQueue()
        undoManagerStorage?.redo()
    }

    /// What an event changed, kept to take it back: objects it inserted, the values of the
    /// objects it changed as they were before, objects it deleted, links it changed.
    struct UndoEvent {
        var inserted: [ManagedObject] = []
        var updated: [(object: ManagedObject, values: [AttributeValue], transients: [AttributeValue]?)] = []
        var deleted: [ManagedObject] = []
        var undeleted: [ManagedObject] = []
        var links: [(object: ManagedObject, relationship: ResolvedRelationship, other: ManagedObject, linked: Bool)] =
            []
        /// The many-to-many links of saved objects it deleted that the deletion removes without
        /// recording them (see ``ManagedObjectContext/severedLinks(of:)``).
        var severed: [(object: ManagedObject, relationship: ResolvedRelationship, other: ManagedObject)] = []
    }

    /// Registers the event's undo, called by `processPendingChanges` before it forgets the
    /// event (`fresh`: the objects inserted in it).
    func registerUndo(inserted fresh: [ManagedObject]) {
        guard let undoManager = undoManagerStorage else { return }
        defer {
            eventLinks.removeAll()
            eventUndeleted.removeAll()
            undoManager.endEvent()
        }
        guard undoManager.isUndoRegistrationEnabled else { return }
        var event = UndoEvent()
        event.inserted = fresh
        for object in pendingUpdated.values {
            if object.eventValues != nil || object.eventTransientValues != nil {
                event.updated.append((object, object.eventValues ?? object.values, object.eventTransientValues))
            }
        }
        event.deleted = Array(pendingDeleted.values)
        if !model.joinTables.isEmpty {
            for object in event.deleted where !object.objectID.isTemporaryID {
                let links = (try? severedLinks(of: object)) ?? []
                event.severed += links.map { (object, $0.relationship, $0.other) }
            }
        }
        event.links = eventLinks
        event.undeleted = eventUndeleted.filter { !$0.isDeletedState && $0.managedObjectContext === self }
        guard
            !event.inserted.isEmpty || !event.updated.isEmpty || !event.deleted.isEmpty || !event.links.isEmpty
                || !event.undeleted.isEmpty
        else { return }
        undoManager.registerUndo(withTarget: self) { context in context.revert(event) }
    }

    /// Takes the objects back to how they were before `event`.
    private func revert(_ event: UndoEvent) {
        var reinserted = Set<ObjectIdentifier>()
        for object in event.deleted {
            // Deleted then: brought back (an inserted one inserted again), before its links. A
            // deletion saved since is inserted again under its permanent ID, to be saved again.
            if object.managedObjectContext == nil && !object.objectID.isTemporaryID {
                if reinsertSaved(object) { reinserted.insert(ObjectIdentifier(object)) }
            } else if object.managedObjectContext == nil || object.isDeletedState {
                insert(object, awakening: false)
            }
        }
        // The links the saved deletion took from the store with the rows: linked again.
        for link in event.severed
        where reinserted.contains(ObjectIdentifier(link.object)) || reinserted.contains(ObjectIdentifier(link.other)) {
            guard link.object.managedObjectContext === self, link.other.managedObjectContext === self,
                (try? manyToManyMembers(of: link.object, link.relationship).contains(link.other)) == false
            else { continue }
            setLink(true, link.object, link.relationship, link.other)
        }
        for link in event.links.reversed()
        where link.object.managedObjectContext === self && link.other.managedObjectContext === self {
            setLink(link.linked, link.object, link.relationship, link.other)
        }
        for (object, values, transients) in event.updated where object.managedObjectContext === self {
            if object.isFaultState { fulfillFault(object) }
            for slot in values.indices
            where slot < object.values.count && object.values[slot] != values[slot]
                && !object.entity.derivedSlots.contains(slot)
            {
                object.writeAttribute(values[slot], slot: slot)
            }
            // Transient changes are undone too, as in Core Data (they are not saved, but are changes).
            for (index, value) in (transients ?? []).enumerated() where object.transientValues[index] != value {
                object.writeAttribute(value, slot: object.entity.storedProperties.count + index)
            }
        }
        for object in event.undeleted where object.managedObjectContext === self && !object.isDeletedState {
            // Brought back then: deleted again, with no delete rule run (what the rules did
            // then comes back with the other objects' values and links above).
            markDeleted(object)
        }
        for object in event.inserted where object.managedObjectContext === self && !object.isDeletedState {
            guard object.isInsertedState else {
                // Inserted then and saved since: deleted, for the next save to remove.
                markDeleted(object)
                continue
            }
            // Inserted then: it leaves the context, with no delete rule run (the objects it
            // relates to take back their own values above). One whose row a save removed
            // (an undone saved deletion, redone) is deleted again, as it was.
            let key = ObjectIdentifier(object)
            inserted.remove(object)
            object.managedObjectContext = nil
            if !object.objectID.isTemporaryID { object.isDeletedState = true }
            pendingUpdated[key] = nil
            if object.insertionAnnounced { pendingDeleted[key] = object }
        }
    }

    /// Marks `object` deleted with no delete rule run: an undo's deletion.
    private func markDeleted(_ object: ManagedObject) {
        if object.isFaultState { fulfillFault(object) }
        let key = ObjectIdentifier(object)
        object.isDeletedState = true
        deleted[key] = object
        updated[key] = nil
        pendingDeleted[key] = object
    }

    /// Brings back an object whose deletion a save wrote: inserted again under its permanent
    /// ID with the values it had, so that the next save writes its row again (Core Data's undo
    /// of a saved deletion). In a child context, the next save takes it back into the parent,
    /// which undeletes it (or, if the parent saved the deletion too, inserts it again).
    private func reinsertSaved(_ object: ManagedObject) -> Bool {
        if let other = lookUp(object.objectID), other !== object { return false }
        object.isDeletedState = false
        object.committedValues = []
        object.version = 0
        object.managedObjectContext = self
        inserted.add(object)
        return true
    }
}
