import Foundation

/// What a ``FetchedResultsController`` tells about changes to its results (Core Data's
/// `NSFetchedResultsControllerDelegate`). Every method has an empty default.
///
/// A round of changes is bracketed by ``controllerWillChangeContent(_:)`` and
/// ``controllerDidChangeContent(_:)``; in between come the sections' changes, then the
/// objects' (see ``FetchedResultsChangeSet`` for the order and the index paths). During the
/// calls, the controller already answers with the new results (`object(at: newIndexPath)`).
///
/// ```swift
/// final class NotesTable: FetchedResultsControllerDelegate {
///     func controllerWillChangeContent(_ controller: FetchedResultsController<Note>) { table.beginUpdates() }
///     func controller(_ controller: FetchedResultsController<Note>, didChange note: Note, at indexPath: IndexPath?,
///                     for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
///         switch type {
///         case .insert: table.insertRows(at: [newIndexPath!])
///         case .delete: table.deleteRows(at: [indexPath!])
///         case .move: table.deleteRows(at: [indexPath!]); table.insertRows(at: [newIndexPath!])
///         case .update: table.reloadRows(at: [indexPath!])
///         }
///     }
///     func controllerDidChangeContent(_ controller: FetchedResultsController<Note>) { table.endUpdates() }
/// }
/// ```
public protocol FetchedResultsControllerDelegate<Result>: AnyObject {
    /// The type of the controller's results.
    associatedtype Result: ManagedObject

    /// A round of changes begins.
    func controllerWillChangeContent(_ controller: FetchedResultsController<Result>)

    /// A section appeared (`.insert`, at its index in the new arrangement) or disappeared
    /// (`.delete`, at its index in the old one). Reported before the objects' changes.
    func controller(
        _ controller: FetchedResultsController<Result>, didChange sectionInfo: FetchedResultsSectionInfo<Result>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)

    /// An object came in (`.insert`: `newIndexPath`), left (`.delete`: `indexPath`), moved
    /// (`.move`: both) or changed in place (`.update`: `indexPath` in the old arrangement,
    /// `newIndexPath` in the new one). `indexPath` is nil for an insertion, `newIndexPath` for
    /// a deletion. A deleted object may be one whose row is gone: read only its `objectID`.
    func controller(
        _ controller: FetchedResultsController<Result>, didChange object: Result,
        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?)

    /// The round of changes is over.
    func controllerDidChangeContent(_ controller: FetchedResultsController<Result>)
    /// The index title of the section named `sectionName` (Core Data's
    /// `controller(_:sectionIndexTitleForSectionName:)`); by default the controller's
    /// ``FetchedResultsController/defaultSectionIndexTitle(forSectionName:)``.
    func controller(
        _ controller: FetchedResultsController<Result>, sectionIndexTitleForSectionName sectionName: String
    )
        -> String?
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController<Result>, didChange sectionInfo: FetchedResultsSectionInfo<Result>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController<Result>, didChange object: Result,
        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {}
    public func controller(
        _ controller: FetchedResultsController<Result>, sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        controller.defaultSectionIndexTitle(forSectionName: sectionName)
    }
}
