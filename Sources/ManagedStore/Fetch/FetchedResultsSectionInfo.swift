/// One section of a ``FetchedResultsController``'s results (Core Data's
/// `NSFetchedResultsSectionInfo`): the objects that share a value of the section key path,
/// in the request's order.
///
/// A section info describes the results as they were when it was asked for; ask the
/// controller's ``FetchedResultsController/sections`` again after a change.
public struct FetchedResultsSectionInfo<Result: ManagedObject> {
    /// The section's name: the section key's value (a string as it is, nil as ""), or "" for
    /// the one section of a controller without a section key path.
    public let name: String
    /// The section's title in a table's index: by default its name's first letter, capitalized
    /// (Core Data's default); nil for an empty name. See
    /// ``FetchedResultsController/sectionIndexTitle(forSectionName:)``.
    public let indexTitle: String?
    /// How many objects the section has.
    public let numberOfObjects: Int
    private let resolve: () -> [Result]

    init(name: String, indexTitle: String?, numberOfObjects: Int, objects: @escaping () -> [Result]) {
        self.name = name
        self.indexTitle = indexTitle
        self.numberOfObjects = numberOfObjects
        self.resolve = objects
    }

    /// The section's objects, in order. With a ``FetchRequest/fetchBatchSize``, they are made
    /// (or found) at this call, all of them: read them one at a time with
    /// ``FetchedResultsController/object(at:)`` instead to keep memory bounded.
    public var objects: [Result] { resolve() }
}
