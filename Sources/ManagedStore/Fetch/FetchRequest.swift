import Foundation

/// A description of the objects to fetch: an entity (given by the class), an optional
/// Foundation `#Predicate`, sort descriptors, a limit and an offset.
///
/// ```swift
/// var request = FetchRequest<Note>(
///     predicate: #Predicate { $0.created >= since && $0.title != "" },
///     sortBy: [SortDescriptor(\.created, order: .reverse)])
/// request.fetchLimit = 10
/// let notes = try context.fetch(request)
/// ```
///
/// The predicate and sort descriptors run as SQL in the store. Supported: `==`, `!=`, `<`,
/// `<=`, `>`, `>=` between an attribute and a value (or two attributes), `&&`, `||`, `!`,
/// comparisons with `nil`, `??` with a value, `!` unwrapping, `[values].contains($0.attribute)`,
/// `$0.text.starts(with: "x")`, and a Bool attribute on its own; across relationships, one
/// to-one deep (`$0.author?.name == "Tolstoy"`, `$0.author?.objectID == id`, `$0.author == nil`)
/// and a to-many's `count` and `contains { … }` (`$0.books.contains { $0.title == "Emma" }`).
/// (Foundation's predicates capture only `Codable` values: compare objects by their
/// `objectID`.) A predicate with anything else
/// is refused with ``ManagedStoreError/unsupportedFetch(entity:reason:)`` naming the expression,
/// never run as a scan in memory. Strings compare and sort by code point.
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// Which objects to fetch (nil: all of the entity's).
    public var predicate: Predicate<Result>?
    /// The order of the results; ties are broken by the order the rows were inserted.
    public var sortDescriptors: [SortDescriptor<Result>]
    /// At most this many results (0: no limit).
    public var fetchLimit = 0
    /// Skip this many results first.
    public var fetchOffset = 0
    /// How many objects to load at a time (0, the default: all at once), as Core Data's
    /// `fetchBatchSize`. A ``FetchedResultsController`` then keeps only the IDs and sort keys
    /// of every result, and makes objects a batch of this many at a time around the ones read,
    /// holding at most two batches. ``ManagedObjectContext/fetch(_:)`` loads every result
    /// whatever this says.
    public var fetchBatchSize = 0
    /// Whether the context's unsaved insertions, updates and deletions count (default true).
    public var includesPendingChanges = true
    /// Whether objects the context already holds take the fetched values (keeping their unsaved
    /// changes on top), as Core Data's `shouldRefreshRefetchedObjects`; by default they keep the
    /// values they have.
    public var shouldRefreshRefetchedObjects = false
    /// Relationships whose destinations are fetched with the results, in one query each, as
    /// Core Data's `relationshipKeyPathsForPrefetching`: a to-one's destination comes loaded
    /// (not a fault), and a to-many's members come with it, so that reading them needs no more
    /// I/O (until the context merges, refreshes, resets or saves).
    public var relationshipKeyPathsForPrefetching: [String] = []

    /// The entity to fetch, by name; nil (the default): `Result`'s entity.
    public var entityName: String?

    /// A request for objects of `Result`'s entity.
    public init(predicate: Predicate<Result>? = nil, sortBy sortDescriptors: [SortDescriptor<Result>] = []) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }

    /// A request for the objects of the entity named `entityName`, as Core Data's
    /// `NSFetchRequest(entityName:)`: for an entity whose class is `ManagedObject` itself (its
    /// values read by key), or one whose class is `Result`.
    ///
    /// ```swift
    /// for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
    ///     print(item.value(forKey: "name") ?? "")
    /// }
    /// ```
    public init(entityName: String) {
        self.entityName = entityName
        self.predicate = nil
        self.sortDescriptors = []
    }
}
