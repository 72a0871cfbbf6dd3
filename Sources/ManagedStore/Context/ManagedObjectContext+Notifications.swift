import Foundation

extension ManagedObjectContext {
    /// Posted on the context's queue just before it saves; the object is the context.
    public static let willSaveNotification = Notification.Name("ManagedObjectContextWillSave")
    /// Posted on the context's queue after it saved; the object is the context. As in Core
    /// Data, its userInfo has the saved objects under ``NotificationKey/insertedObjects``,
    /// ``NotificationKey/updatedObjects`` and ``NotificationKey/deletedObjects`` (each a
    /// `Set<ManagedObject>`: touch them only on the saving context's queue, during the
    /// notification). It also has the `Sendable` ``NotificationKey/changes`` (a
    /// ``ContextSaveChanges``) and the ID sets of ``didSaveObjectIDsNotification``, so either
    /// notification can be handed to `mergeChanges(fromContextDidSave:)`.
    public static let didSaveNotification = Notification.Name("ManagedObjectContextDidSave")
    /// Posted right after ``didSaveNotification``, with IDs only (Core Data's
    /// `didSaveObjectIDsNotification`): ``NotificationKey/insertedObjectIDs``,
    /// ``NotificationKey/updatedObjectIDs`` and ``NotificationKey/deletedObjectIDs`` (each a
    /// `Set<ManagedObjectID>`) and ``NotificationKey/changes``, all `Sendable`: the one to
    /// observe from another queue.
    public static let didSaveObjectIDsNotification = Notification.Name("ManagedObjectContextDidSaveObjectIDs")
    /// Posted on the context's queue when its objects changed: by local edits (at the end of
    /// each `perform`/`performAndWait` block, or at `processPendingChanges()`), by a merge, or
    /// by a reset. Its userInfo has the changed objects under ``NotificationKey/insertedObjects``,
    /// ``NotificationKey/updatedObjects``, ``NotificationKey/deletedObjects`` and
    /// ``NotificationKey/refreshedObjects`` (each a `Set<ManagedObject>`, for use on the
    /// context's queue only).
    public static let objectsDidChangeNotification = Notification.Name("ManagedObjectContextObjectsDidChange")

    /// The keys of the contexts' notifications' userInfo dictionaries (use `rawValue`).
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        /// The key as it appears in `userInfo`.
        public let rawValue: String
        /// The key named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// didSave: `Set<ManagedObjectID>` of inserted objects.
        public static let insertedObjectIDs = NotificationKey(rawValue: "inserted_objectIDs")
        /// didSave: `Set<ManagedObjectID>` of updated objects.
        public static let updatedObjectIDs = NotificationKey(rawValue: "updated_objectIDs")
        /// didSave: `Set<ManagedObjectID>` of deleted objects.
        public static let deletedObjectIDs = NotificationKey(rawValue: "deleted_objectIDs")
        /// didSave: the ``ContextSaveChanges``.
        public static let changes = NotificationKey(rawValue: "changes")
        /// objectsDidChange and didSave: `Set<ManagedObject>` inserted.
        public static let insertedObjects = NotificationKey(rawValue: "inserted")
        /// objectsDidChange: `Set<ManagedObject>` updated.
        public static let updatedObjects = NotificationKey(rawValue: "updated")
        /// objectsDidChange: `Set<ManagedObject>` deleted.
        public static let deletedObjects = NotificationKey(rawValue: "deleted")
        /// objectsDidChange: `Set<ManagedObject>` whose values a merge or refresh replaced.
        public static let refreshedObjects = NotificationKey(rawValue: "refreshed")
        /// objectsDidChange after a merge: `Set<ManagedObjectID>` of objects another context
        /// inserted (not registered here until fetched).
        public static let mergedInsertedObjectIDs = NotificationKey(rawValue: "merged_inserted_objectIDs")
        /// objectsDidChange after ``ManagedObjectContext/reset()``: `true`.
        public static let invalidatedAllObjects = NotificationKey(rawValue: "invalidatedAll")
    }

    /// Posts objectsDidChange for the local changes made since the last call, if any.
    /// Called at the end of each outermost `perform`/`performAndWait` block and before a save.
    public func processPendingChanges() {
        _ = postPendingChanges()
    }

    /// ``processPendingChanges()``, returning the inserted objects it announced (for a save to
    /// hand on to didSave when they are the ones it saved, rather than hash them again).
    func postPendingChanges() -> Set<ManagedObject> {
        checkQueue()
        guard
            inserted.hasUnnotified || !pendingUpdated.isEmpty || !pendingDeleted.isEmpty || !eventLinks.isEmpty
                || !eventUndeleted.isEmpty
        else {
            undoManagerStorage?.endEvent()
            return []
        }
        var info: [String: Any] = [:]
        let fresh = inserted.takeUnnotified()
        if undoManagerStorage != nil { registerUndo(inserted: fresh) }
        let announced = Set(fresh)
        if !fresh.isEmpty { info[NotificationKey.insertedObjects.rawValue] = announced }
        if !pendingUpdated.isEmpty { info[NotificationKey.updatedObjects.rawValue] = Set(pendingUpdated.values) }
        if !pendingDeleted.isEmpty { info[NotificationKey.deletedObjects.rawValue] = Set(pendingDeleted.values) }
        let changed = Array(pendingUpdated.values) + Array(pendingDeleted.values)
        pendingUpdated.removeAll()
        pendingDeleted.removeAll()
        if !info.isEmpty {
            NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self, userInfo: info)
        }
        // The event is over: what its observers read of it (changedValuesForCurrentEvent) goes.
        for object in changed {
            object.eventValues = nil
            object.eventTransientValues = nil
        }
        eventMemberChanges.removeAll()
        return announced
    }
}
