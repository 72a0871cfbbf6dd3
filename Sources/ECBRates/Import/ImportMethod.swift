/// How an import's workers store a chunk's new rates (both in one transaction per chunk, on
/// background contexts, with the same reports, corrections and whole-day guarantee).
public enum ImportMethod: String, Sendable, CaseIterable {
    /// As managed objects, inserted in the worker's context and saved (Core Data's usual way).
    case object
    /// With one ``ManagedStore/BatchInsertRequest`` per chunk, without making objects. A chunk
    /// that corrects stored rates is stored as objects, so that the corrections and their
    /// records commit with it. A batch insert posts no didSave: its new rows' IDs are relayed to
    /// every context of the store that merges automatically (the view context, when it merges),
    /// as a save is, and reach other processes through the persistent history, as in Core Data.
    case batch
}
