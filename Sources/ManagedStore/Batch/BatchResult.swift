/// What a batch request returns (Core Data's `NSBatchInsertRequestResultType`,
/// `NSBatchUpdateRequestResultType` and `NSBatchDeleteRequestResultType`, which share these
/// three shapes).
public enum BatchResultType: Sendable, Hashable {
    /// Whether it succeeded (the default).
    case statusOnly
    /// How many objects it inserted, updated or deleted.
    case count
    /// The IDs of the objects it inserted, updated or deleted.
    case objectIDs
}

/// The result of a batch request, in the form its result type asked for.
///
/// ```swift
/// var request = BatchDeleteRequest(FetchRequest<Note>(predicate: #Predicate { $0.stars == 0 }))
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).objectIDs ?? []
/// ManagedObjectContext.mergeChanges(fromRemoteContextSave: ContextSaveChanges(
///     insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: Set(ids)), into: [viewContext])
/// ```
public enum BatchResult: Sendable {
    /// For ``BatchResultType/statusOnly``.
    case status(Bool)
    /// For ``BatchResultType/count``.
    case count(Int)
    /// For ``BatchResultType/objectIDs``.
    case objectIDs([ManagedObjectID])

    /// The IDs, for an ``BatchResultType/objectIDs`` result.
    public var objectIDs: [ManagedObjectID]? {
        if case .objectIDs(let ids) = self { return ids } else { return nil }
    }

    /// The count, for a ``BatchResultType/count`` result (or the number of IDs).
    public var count: Int? {
        switch self {
        case .count(let count): return count
        case .objectIDs(let ids): return ids.count
        case .status: return nil
        }
    }

    init(_ ids: [ManagedObjectID], as type: BatchResultType) {
        switch type {
        case .statusOnly: self = .status(true)
        case .count: self = .count(ids.count)
        case .objectIDs: self = .objectIDs(ids)
        }
    }
}
