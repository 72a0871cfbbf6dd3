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
        var updated: [(object: ManagedObject, values: [AttributeValue])] = []
        var deleted: [ManagedObject] = []
        var undeleted: [ManagedObject] = []
        var links: [(object: ManagedObject, relationship: ResolvedRelationship, other: ManagedObject, linked: Bool)] =
            []
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
            if let values = object.eventValues { event.updated.append((object, values)) }
        }
        event.deleted = Array(pendingDeleted.values)
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
        for object in event.deleted {
            // Deleted then: brought back (an inserted one inserted again), before its links.
            if object.managedObjectContext == nil || object.isDeletedState { insert(object, awakening: false) }
        }
        for link in event.links.reversed()
        where link.object.managedObjectContext === self && link.other.managedObjectContext === self {
            setLink(link.linked, link.object, link.relationship, link.other)
        }
        for (object, values) in event.updated where object.managedObjectContext === self {
            if object.isFaultState { fulfillFault(object) }
            for slot in values.indices
            where slot < object.values.count && object.values[slot] != values[slot]
                && !object.entity.derivedSlots.contains(slot)
            {
                object.writeAttribute(values[slot], slot: slot)
            }
        }
        for object in event.undeleted where object.managedObjectContext === self && !object.isDeletedState {
            // Brought back then: deleted again, with no delete rule run (what the rules did
            // then comes back with the other objects' values and links above).
            if object.isFaultState { fulfillFault(object) }
            let key = ObjectIdentifier(object)
            object.isDeletedState = true
            deleted[key] = object
            updated[key] = nil
            pendingDeleted[key] = object
        }
        for object in event.inserted where object.managedObjectContext === self && object.isInsertedState {
            // Inserted then: it leaves the context, with no delete rule run (the objects it
            // relates to take back their own values above).
            let key = ObjectIdentifier(object)
            inserted.remove(object)
            object.managedObjectContext = nil
            pendingUpdated[key] = nil
            if object.insertionAnnounced { pendingDeleted[key] = object }
        }
    }
}
