/// Whether a store's saves record persistent history.
enum HistoryMode: Sendable {
    /// No history is recorded (and none was, or the store is read-only).
    case off
    /// Every save records a transaction; older than `retentionDays` is purged.
    case tracking(retentionDays: Int?)
    /// The store has recorded history, but was opened without tracking: it is read-only, as
    /// in Core Data, so that no change goes unrecorded.
    case requiredButOff

    init(_ description: PersistentStoreDescription, storeHasHistory: Bool) {
        if description.persistentHistoryTracking {
            self = .tracking(retentionDays: description.persistentHistoryRetentionDays)
        } else {
            self = storeHasHistory && !description.isReadOnly ? .requiredButOff : .off
        }
    }
}
