import Foundation

/// What a context's save changed, as its ``ManagedObjectContext/didSaveNotification`` carries
/// it: `Sendable`, so an observer on any queue may keep it and hand it to another context.
///
/// `Notification` itself is not `Sendable`; take this out of it where it is delivered:
///
/// ```swift
/// NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveNotification,
///                                        object: worker, queue: nil) { note in
///     guard let changes = ContextSaveChanges(note) else { return }
///     viewContext.perform { viewContext.mergeChanges(fromContextDidSave: changes) }
/// }
/// ```
public struct ContextSaveChanges: Sendable {
    /// Objects the save inserted (with their permanent IDs after a save to the store).
    public let insertedObjectIDs: Set<ManagedObjectID>
    /// Objects the save updated.
    public let updatedObjectIDs: Set<ManagedObjectID>
    /// Objects the save deleted.
    public let deletedObjectIDs: Set<ManagedObjectID>
    /// The temporary IDs the saved objects had, and the permanent IDs they have now.
    public var temporaryObjectIDs: [ManagedObjectID: ManagedObjectID] {
        Dictionary(temporaryIDPairs.map { ($0.temporary, $0.permanent) }, uniquingKeysWith: { $1 })
    }
    /// The temporary ID each inserted row's object had (nil for an ID obtained before the save).
    let insertedTemporaryIDs: [ManagedObjectID?]
    /// Objects that took an existing row's ID (conflicts resolved by a merge policy).
    let adoptedIDs: [(temporary: ManagedObjectID, permanent: ManagedObjectID)]

    /// Every temporary ID with its permanent one, built when a merge needs them.
    var temporaryIDPairs: [(temporary: ManagedObjectID, permanent: ManagedObjectID)] {
        var pairs = adoptedIDs
        for (temporary, row) in zip(insertedTemporaryIDs, insertedRows) {
            if let temporary { pairs.append((temporary, row.id)) }
        }
        return pairs
    }
    /// The values the inserted and updated objects were saved with, for merging without I/O.
    let insertedRows: [RowSnapshot]
    let updatedRows: [RowSnapshot]
    /// False for changes known by their IDs only (from persistent history or a batch request):
    /// a merge then reads the values of the objects it holds from the store.
    let carriesValues: Bool

    init(
        insertedRows: [RowSnapshot], updatedRows: [RowSnapshot], deletedObjectIDs: [ManagedObjectID],
        insertedTemporaryIDs: [ManagedObjectID?] = [],
        adoptedIDs: [(temporary: ManagedObjectID, permanent: ManagedObjectID)] = []
    ) {
        self.insertedRows = insertedRows
        self.updatedRows = updatedRows
        self.insertedObjectIDs = Self.ids(of: insertedRows)
        self.updatedObjectIDs = Self.ids(of: updatedRows)
        self.deletedObjectIDs = Set(deletedObjectIDs)
        self.insertedTemporaryIDs = insertedTemporaryIDs
        self.adoptedIDs = adoptedIDs
        self.carriesValues = true
    }

    /// Changes known by their object IDs only, as persistent history and batch requests know
    /// them. Merging them refreshes the objects a context holds from the store.
    ///
    /// ```swift
    /// let changes = ContextSaveChanges(insertedObjectIDs: Set(result.objectIDs), updatedObjectIDs: [], deletedObjectIDs: [])
    /// ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [viewContext])
    /// ```
    public init(
        insertedObjectIDs: Set<ManagedObjectID>, updatedObjectIDs: Set<ManagedObjectID>,
        deletedObjectIDs: Set<ManagedObjectID>
    ) {
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
        self.insertedRows = []
        self.updatedRows = []
        self.insertedTemporaryIDs = []
        self.adoptedIDs = []
        self.carriesValues = false
    }

    /// What `transactions` (in order) changed in all, by ID, for one merge: an object inserted
    /// and deleted among them is gone, an object inserted and updated is new.
    ///
    /// ```swift
    /// viewContext.mergeChanges(fromContextDidSave: ContextSaveChanges(merging: transactions))
    /// ```
    public init(merging transactions: [PersistentHistoryTransaction]) {
        var inserted = Set<ManagedObjectID>(), updated = Set<ManagedObjectID>(), deleted = Set<ManagedObjectID>()
        for transaction in transactions {
            for change in transaction.changes ?? [] {
                switch change.changeType {
                case .insert: inserted.insert(change.changedObjectID)
                case .update: updated.insert(change.changedObjectID)
                case .delete: deleted.insert(change.changedObjectID)
                }
            }
        }
        inserted.subtract(deleted)
        updated.subtract(deleted)
        updated.subtract(inserted)
        self.init(insertedObjectIDs: inserted, updatedObjectIDs: updated, deletedObjectIDs: deleted)
    }

    /// A ``ManagedObjectContext/didSaveObjectIDsNotification`` carrying these changes.
    func objectIDsNotification(object: ManagedObjectContext?) -> Notification {
        Notification(
            name: ManagedObjectContext.didSaveObjectIDsNotification, object: object, userInfo: objectIDsUserInfo)
    }

    /// The userInfo of a didSaveObjectIDs notification: the three ID sets and the changes.
    var objectIDsUserInfo: [String: Any] {
        [
            ManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue: insertedObjectIDs,
            ManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue: updatedObjectIDs,
            ManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue: deletedObjectIDs,
            ManagedObjectContext.NotificationKey.changes.rawValue: self,
        ]
    }

    private static func ids(of rows: [RowSnapshot]) -> Set<ManagedObjectID> {
        var ids = Set<ManagedObjectID>(minimumCapacity: rows.count)
        for row in rows { ids.insert(row.id) }
        return ids
    }

    /// The changes a ``ManagedObjectContext/didSaveNotification`` carries; nil for any other
    /// notification.
    public init?(_ notification: Notification) {
        guard
            let changes = notification.userInfo?[ManagedObjectContext.NotificationKey.changes.rawValue]
                as? ContextSaveChanges
        else {
            return nil
        }
        self = changes
    }

    /// True when the save changed nothing.
    public var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }
}
