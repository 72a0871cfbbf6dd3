/// Deletes every object a fetch request selects, in the store, without loading them (Core
/// Data's `NSBatchDeleteRequest`). Run it with ``ManagedObjectContext/execute(_:)-(BatchDeleteRequest<T>)``:
/// one write transaction, recorded in the persistent history (with tombstones) when the store
/// tracks it.
///
/// ```swift
/// var request = BatchDeleteRequest(FetchRequest<Note>(predicate: #Predicate { $0.stars == 0 }))
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).objectIDs ?? []
/// ```
///
/// Relationships to the deleted objects follow their delete rules where that needs no object:
/// `nullify` clears the other side's key in SQL, `noAction` leaves it. A `cascade` or `deny`
/// rule that would apply to a related row refuses the whole request, naming the relationship
/// (delete those objects through a context, which applies the rules); nothing is deleted then.
/// The fetch request's sort descriptors, limit and offset are honoured; its pending-changes
/// settings are not (the request reads the store).
public struct BatchDeleteRequest<T: ManagedObject>: Sendable {
    /// The objects to delete (unused when the request was made with ``init(objectIDs:)``).
    public var fetchRequest: FetchRequest<T>
    /// What the request returns (default ``BatchResultType/statusOnly``).
    public var resultType: BatchResultType = .statusOnly
    /// The objects to delete, when the request was made with ``init(objectIDs:)``.
    public private(set) var objectIDs: [ManagedObjectID]?

    /// A request to delete the objects `fetchRequest` selects.
    public init(_ fetchRequest: FetchRequest<T>) {
        self.fetchRequest = fetchRequest
    }
}

extension BatchDeleteRequest where T == ManagedObject {
    /// A request to delete the objects whose IDs are `objectIDs`, as Core Data's
    /// `NSBatchDeleteRequest(objectIDs:)`:
    ///
    /// ```swift
    /// let request = BatchDeleteRequest(objectIDs: [note.objectID, other.objectID])
    /// try context.execute(request)
    /// ```
    ///
    /// As Apple documents, the IDs must be of one entity: IDs of two entities make executing
    /// the request throw ``ManagedStoreError/invalidBatchRequest(entity:reason:)``, and so does a
    /// temporary ID (an object never saved) or one of another store; nothing is deleted then.
    /// An ID whose row is gone already is passed over. The same delete rules apply as for a
    /// request made with a fetch request.
    public init(objectIDs: [ManagedObjectID]) {
        self.init(FetchRequest<ManagedObject>())
        self.objectIDs = objectIDs
    }
}
