/// Inserts many objects of one entity straight into the store, without making managed objects
/// in a context (Core Data's `NSBatchInsertRequest`). Run it with
/// ``ManagedObjectContext/execute(_:)-(BatchInsertRequest<T>)``: one write transaction, recorded in
/// the persistent history when the store tracks it. Contexts do not see the new rows until they
/// fetch again, or merge the result (``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``).
///
/// ```swift
/// let request = BatchInsertRequest<Note>(objects: [
///     ["title": .string("a"), "stars": .integer(3)],
///     ["title": .string("b")],
/// ])
/// try context.execute(request)
/// ```
///
/// Values are given by attribute (or to-one relationship) name; one not given takes the
/// attribute's default. An unknown name, a value of the wrong type, or a missing mandatory value
/// fails the whole request, naming them. As in Core Data, a row that breaks a uniqueness
/// constraint updates the stored row that holds those values (an "upsert"), with every value of
/// the new row.
public struct BatchInsertRequest<T: ManagedObject> {
    enum Source {
        case objects([[String: AttributeValue]])
        case dictionaryHandler((inout [String: AttributeValue]) -> Bool)
        case objectHandler((T) -> Bool)
    }

    let source: Source
    /// What ``ManagedObjectContext/execute(_:)-(BatchInsertRequest<T>)`` returns (default
    /// ``BatchResultType/statusOnly``; ``BatchResultType/objectIDs`` lists each row's object,
    /// inserted or updated, in the order given).
    public var resultType: BatchResultType = .statusOnly

    /// A request to insert one row per dictionary of `objects`.
    public init(objects: [[String: AttributeValue]]) {
        source = .objects(objects)
    }

    /// A request that asks `handler` for one row at a time: it fills the dictionary it is given
    /// (empty each time) and returns true when there are no more rows (that call's dictionary is
    /// not inserted), as Core Data's `dictionaryHandler`.
    public init(dictionaryHandler handler: @escaping (inout [String: AttributeValue]) -> Bool) {
        source = .dictionaryHandler(handler)
    }

    /// A request that asks `handler` to fill one object at a time (a scratch object with the
    /// default values, in no context), and returns true when there are no more (that call's
    /// object is not inserted), as Core Data's `managedObjectHandler`.
    public init(managedObjectHandler handler: @escaping (T) -> Bool) {
        source = .objectHandler(handler)
    }
}
