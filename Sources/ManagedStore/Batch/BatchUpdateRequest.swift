import Foundation

/// Sets attributes of every object a predicate selects, in the store, without loading them
/// (Core Data's `NSBatchUpdateRequest`). Run it with ``ManagedObjectContext/execute(_:)-(BatchUpdateRequest<T>)``:
/// one SQL `UPDATE` in one write transaction, recorded in the persistent history when the store
/// tracks it.
///
/// ```swift
/// var request = BatchUpdateRequest<Note>(predicate: #Predicate { $0.stars == 0 }, propertiesToUpdate: ["stars": .integer(1)])
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).objectIDs ?? []
/// ```
///
/// Values are checked against the attributes' types and optionality first; an update that
/// would make two rows break a uniqueness constraint fails whole
/// (``ManagedStoreError/saveConflicts(constraint:optimisticLocking:)``), nothing written.
/// Each updated row's version moves on, so that a context holding one of its objects meets an
/// optimistic locking conflict if it saves its old values.
public struct BatchUpdateRequest<T: ManagedObject>: Sendable {
    /// Which objects to update (nil: all of the entity's).
    public var predicate: Predicate<T>?
    /// The new values, by attribute (or to-one relationship) name.
    public var propertiesToUpdate: [String: AttributeValue]
    /// What the request returns (default ``BatchResultType/statusOnly``).
    public var resultType: BatchResultType = .statusOnly

    /// A request to set `propertiesToUpdate` on the objects `predicate` selects.
    public init(predicate: Predicate<T>? = nil, propertiesToUpdate: [String: AttributeValue]) {
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}
