/// The values of one object as a store or a parent context holds them: what fetches, faults
/// and save notifications carry between queues.
struct RowSnapshot: Sendable {
    let id: ManagedObjectID
    let version: Int64
    let values: [AttributeValue]
}
