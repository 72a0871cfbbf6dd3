/// What happened to an object or a section of a ``FetchedResultsController``'s results (Core
/// Data's `NSFetchedResultsChangeType`).
public enum FetchedResultsChangeType: Sendable, Hashable {
    /// It came into the results (for an object: at the new index path).
    case insert
    /// It left the results (for an object: from the old index path).
    case delete
    /// An object's place changed because a sort key of its changed.
    case move
    /// An object changed where it stands.
    case update
}
