import Foundation

/// One round of changes to a ``FetchedResultsController``'s results, in the form a table view's
/// batch update takes, with object IDs (not objects), so that it is `Sendable`: what the
/// controller's ``FetchedResultsController/changes`` stream delivers, and what its delegate is
/// told one call at a time.
///
/// Index paths follow UITableView's batch updates: deletions, updates and a move's source are
/// in the arrangement before the changes, insertions and a move's destination in the one after.
/// A table applies them as deletions (rows, then sections, from the old arrangement), then
/// insertions (sections, then rows, into the new one): a move is a deletion and an insertion.
///
/// ```swift
/// for await changes in controller.changes {
///     for change in changes.objectChanges {
///         if case .insert(let id, let newIndexPath) = change { print("new", id, "at", newIndexPath) }
///     }
/// }
/// ```
public struct FetchedResultsChangeSet: Sendable, Hashable {
    /// A section that appeared or disappeared (sections never move: they follow the first
    /// sort descriptor).
    public enum SectionChange: Sendable, Hashable {
        /// A section named `name` appeared at index `at` of the new arrangement.
        case insert(name: String, at: Int)
        /// The section named `name` at index `at` of the old arrangement disappeared.
        case delete(name: String, at: Int)
    }

    /// A change to one object of the results.
    public enum ObjectChange: Sendable, Hashable {
        /// The object came into the results at `at`, in the new arrangement.
        case insert(ManagedObjectID, at: IndexPath)
        /// The object at `at` of the old arrangement left the results.
        case delete(ManagedObjectID, at: IndexPath)
        /// The object at `from` (old arrangement) went to `to` (new arrangement): a sort key of
        /// its changed and its index path with it. (It changed too, as an update.)
        case move(ManagedObjectID, from: IndexPath, to: IndexPath)
        /// The object at `at` (old arrangement) changed, and stays where it is among the others.
        case update(ManagedObjectID, at: IndexPath)

        /// The object's ID.
        public var objectID: ManagedObjectID {
            switch self {
            case .insert(let id, _), .delete(let id, _), .move(let id, _, _), .update(let id, _): return id
            }
        }

        /// The change's type, as the delegate is told it.
        public var type: FetchedResultsChangeType {
            switch self {
            case .insert: return .insert
            case .delete: return .delete
            case .move: return .move
            case .update: return .update
            }
        }
    }

    /// The sections that appeared or disappeared: deletions (by old index), then insertions (by
    /// new index). Reported before the objects' changes, as Core Data does.
    public var sectionChanges: [SectionChange] = []
    /// The objects that changed: deletions (by old index path), then insertions (by new index
    /// path), then moves (by new index path), then updates (by old index path).
    public var objectChanges: [ObjectChange] = []

    /// True when nothing changed.
    public var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    /// An empty change set.
    public init() {}
}
