import Foundation

/// A description of what to fetch: an entity, an optional Foundation `#Predicate`, sort
/// descriptors, a limit and an offset, and what to return for each object it selects
/// (Core Data's `NSFetchRequest<ResultType>`).
///
/// ```swift
/// var request = FetchRequest<Note>(
///     predicate: #Predicate { $0.created >= since && $0.title != "" },
///     sortBy: [SortDescriptor(\.created, order: .reverse)])
/// request.fetchLimit = 10
/// let notes = try context.fetch(request)
/// ```
///
/// `Result` is what ``ManagedObjectContext/fetch(_:)`` returns, one per object, as Core Data's
/// result types: the objects themselves (`FetchRequest<Note>`), their IDs
/// (`FetchRequest<ManagedObjectID>`), dictionaries of their values (`FetchRequest<NSDictionary>`),
/// or their count (`FetchRequest<NSNumber>`); see ``resultType``. A request for objects takes
/// its predicate and sort descriptors typed by the object's class (``predicate``,
/// ``sortDescriptors``); any request can take them typed by the class of the entity it names,
/// with ``init(entity:predicate:sortBy:)`` or ``setPredicate(_:sortBy:)``.
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
public struct FetchRequest<Result: FetchRequestResult>: Sendable {
    /// The predicate of a request of objects, typed by their class: kept as it is, so that
    /// making and running the common request costs no erasure.
    var resultPredicate: Predicate<Result>?
    /// The sort descriptors of a request of objects, typed by their class.
    var resultSortDescriptors: [SortDescriptor<Result>] = []
    /// The predicate when it is typed by another class than `Result` (a request of IDs,
    /// dictionaries or a count), erased (see ``FetchFilter``).
    var filter: FetchFilter?
    /// The sort descriptors when they are typed by another class than `Result`, erased.
    var ordering: FetchOrdering?
    /// The class of the entity to fetch when no ``entityName`` is given: `Result` for a request
    /// of objects, the predicate's class for a request made with one.
    var entityClass: ManagedObject.Type?

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
    ///
    /// As Core Data documents, it has no effect with ``FetchRequestResultType/dictionaryResultType``:
    /// "the array returned from the fetch reflects the current state in the persistent store,
    /// and does not take into account any pending changes, insertions, or deletions in the
    /// context" (`NSFetchRequest.includesPendingChanges`).
    public var includesPendingChanges = true
    /// Whether objects the context already holds take the fetched values (keeping their unsaved
    /// changes on top), as Core Data's `shouldRefreshRefetchedObjects`; by default they keep the
    /// values they have.
    public var shouldRefreshRefetchedObjects = false
    /// Whether objects of the entity's sub-entities are fetched too, as Core Data's
    /// `includesSubentities` (true by default): a fetch of `Vehicle` finds its `Car`s.
    public var includesSubentities = true
    /// Relationships whose destinations are fetched with the results, in one query each, as
    /// Core Data's `relationshipKeyPathsForPrefetching`: a to-one's destination comes loaded
    /// (not a fault), and a to-many's members come with it, so that reading them needs no more
    /// I/O (until the context merges, refreshes, resets or saves).
    public var relationshipKeyPathsForPrefetching: [String] = []

    /// What a fetch returns for each object the request selects (Core Data's `resultType`):
    /// the object, its ID, a dictionary of its values, or (once, for all of them) their count.
    ///
    /// It starts as the type `Result` stands for: ``FetchRequestResultType/managedObjectResultType``
    /// for a request of objects, as Core Data's default; `.managedObjectIDResultType` for
    /// `FetchRequest<ManagedObjectID>`, `.dictionaryResultType` for `FetchRequest<NSDictionary>`,
    /// `.countResultType` for `FetchRequest<NSNumber>`. (Core Data's request starts at
    /// `.managedObjectResultType` whatever its type, and a fetch whose results are not of the
    /// request's type fails in the cast.) Setting it to a type that `Result` is not makes the
    /// fetch throw ``ManagedStoreError/unsupportedFetch(entity:reason:)``, saying which.
    public var resultType: FetchRequestResultType

    /// The attributes and to-one relationships, by name, each dictionary result holds (Core
    /// Data's `propertiesToFetch`); nil (the default): every attribute, and no relationship.
    /// With ``FetchRequestResultType/managedObjectResultType``, Core Data makes partial faults
    /// of the named properties; ManagedStore checks the names and loads whole rows (the values
    /// read are the same). A name that is not an attribute or to-one relationship of the entity
    /// makes the fetch throw ``ManagedStoreError/unsupportedFetch(entity:reason:)``.
    public var propertiesToFetch: [String]?

    /// Whether dictionary results that are equal are returned once (Core Data's
    /// `returnsDistinctResults`, default false). Used only with
    /// ``FetchRequestResultType/dictionaryResultType``, as Apple documents.
    public var returnsDistinctResults = false

    /// Whether the objects a fetch returns are faults (default true), as Core Data's
    /// `returnsObjectsAsFaults`: "Core Data fetches the object data for the matching records,
    /// fills the row cache with the information, and returns managed object as faults. These
    /// faults are managed objects, but all of their property data resides in the row cache
    /// until the fault is fired." Firing such a fault reads no store: the object takes the
    /// values the fetch read, and ``ManagedObject/awakeFromFetch()`` runs then. As Core Data's
    /// row cache belongs to the coordinator and a save updates it, a save through the same
    /// coordinator since the fetch makes firing read the store (the row as saved, or an
    /// inaccessible fault if it was deleted); a batch request does not, until merged, as in Core
    /// Data; nor does another coordinator's or process's save, until merged. The context's
    /// `stalenessInterval` bounds the cached values' age. Set it to false when every result's
    /// values will be read: the objects then come with them.
    ///
    /// Objects the context already holds come as they are, and so do objects with unsaved
    /// changes, which are never faults. The objects of a request with
    /// ``relationshipKeyPathsForPrefetching`` come loaded (the prefetched relationships are
    /// theirs), and so do a ``FetchedResultsController``'s (it reads every result's sort keys).
    /// It has no effect on other result types.
    public var returnsObjectsAsFaults = true

    /// Whether a fetch of objects reads their values (default true), as Core Data's
    /// `includesPropertyValues`: when false, "Core Data fetches only the object ID information
    /// for the matching records—it does not populate the row cache. The returned objects are
    /// still managed objects; however, they are faults, and when a fault is fired, Core Data
    /// fetches the row's data." For objects that will not be read: to delete them, or to pass
    /// them along. The context's unsaved changes count as they do for a fetch of IDs. A fetch of
    /// IDs never reads the values, whatever this says.
    public var includesPropertyValues = true

    /// The entity to fetch, by name; nil (the default): `Result`'s entity, or the entity of
    /// the class the request's predicate is typed by.
    public var entityName: String?

    /// A request for the `Result`s of the entity named `entityName`, as Core Data's
    /// `NSFetchRequest(entityName:)`: for an entity whose class is `ManagedObject` itself (its
    /// values read by key), or one whose class is `Result`; or for the IDs, dictionaries or count
    /// of any entity's objects.
    ///
    /// ```swift
    /// for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
    ///     print(item.value(forKey: "name") ?? "")
    /// }
    /// let ids = try context.fetch(FetchRequest<ManagedObjectID>(entityName: "Item"))
    /// ```
    public init(entityName: String) {
        self.entityName = entityName
        self.resultType = Self.impliedResultType
    }

    /// A request for the `Result`s (IDs, dictionaries, a count; or objects) of the objects of
    /// `entity`'s entity that `predicate` selects, in the order of `sortDescriptors`: how a
    /// typed predicate is given to a request whose results are not objects of that class
    /// (where Core Data takes an `NSPredicate(format:)` on the entity).
    ///
    /// ```swift
    /// var request = FetchRequest<NSDictionary>(entity: Note.self, predicate: #Predicate { $0.stars > 3 })
    /// request.propertiesToFetch = ["title", "stars"]
    /// ```
    public init<Entity: ManagedObject>(
        entity: Entity.Type, predicate: Predicate<Entity>? = nil, sortBy sortDescriptors: [SortDescriptor<Entity>] = []
    ) {
        self.entityClass = Entity.self
        self.filter = predicate.map(FetchFilter.init)
        self.ordering = FetchOrdering(sortDescriptors)
        self.resultType = Self.impliedResultType
    }

    /// The same request (entity, predicate, order, limits and settings), returning `Result`s:
    /// `FetchRequest<ManagedObjectID>(Note.fetchRequest())`. Its ``resultType`` becomes the
    /// one `Result` stands for.
    public init<Other: FetchRequestResult>(_ request: FetchRequest<Other>) {
        if let same = request as? FetchRequest<Result> {
            resultPredicate = same.resultPredicate
            resultSortDescriptors = same.resultSortDescriptors
        }
        if let objects = request as? any ErasableFetchRequest, !(request is FetchRequest<Result>) {
            filter = objects.erasedFilter
            ordering = objects.erasedOrdering
        } else {
            filter = request.filter
            ordering = request.ordering
        }
        entityClass = request.entityClass
        fetchLimit = request.fetchLimit
        fetchOffset = request.fetchOffset
        fetchBatchSize = request.fetchBatchSize
        includesPendingChanges = request.includesPendingChanges
        shouldRefreshRefetchedObjects = request.shouldRefreshRefetchedObjects
        relationshipKeyPathsForPrefetching = request.relationshipKeyPathsForPrefetching
        propertiesToFetch = request.propertiesToFetch
        returnsDistinctResults = request.returnsDistinctResults
        returnsObjectsAsFaults = request.returnsObjectsAsFaults
        includesPropertyValues = request.includesPropertyValues
        entityName = request.entityName
        resultType = Self.impliedResultType
    }

    /// Sets the predicate and sort descriptors, typed by the class of the entity to fetch, of
    /// a request of any result type (for a request of objects, ``predicate`` and
    /// ``sortDescriptors`` are the same, typed by `Result`). The entity becomes `Entity`'s,
    /// unless the request names one, which must then be of class `Entity`.
    public mutating func setPredicate<Entity: ManagedObject>(
        _ predicate: Predicate<Entity>?, sortBy sortDescriptors: [SortDescriptor<Entity>] = []
    ) {
        entityClass = Entity.self
        resultPredicate = nil
        resultSortDescriptors = []
        filter = predicate.map(FetchFilter.init)
        ordering = FetchOrdering(sortDescriptors)
    }

    /// The WHERE clause of the request's predicate (nil: none), for `entity`.
    func whereClause(_ compiler: PredicateSQLCompiler) throws -> (String, [SQLiteValue])? {
        if let resultPredicate { return try compiler.whereClause(for: resultPredicate) }
        return try filter?.compile(compiler)
    }

    /// The ORDER BY clause of the request's sort descriptors, and their keys.
    func orderBy(_ compiler: PredicateSQLCompiler) throws -> (String, [SortKey]) {
        if let ordering { return try ordering.compile(compiler) }
        return try compiler.orderBy(resultSortDescriptors)
    }

    /// Whether `object` (of the request's entity) satisfies the request's predicate.
    func matches(_ object: ManagedObject) throws -> Bool {
        if let resultPredicate { return try resultPredicate.evaluate(object as! Result) }
        return try filter?.evaluate(object) ?? true
    }

    /// The result type `Result` stands for.
    static var impliedResultType: FetchRequestResultType {
        if Result.self == ManagedObjectID.self { return .managedObjectIDResultType }
        if Result.self == NSDictionary.self { return .dictionaryResultType }
        if Result.self == NSNumber.self { return .countResultType }
        return .managedObjectResultType
    }
}

extension FetchRequest where Result: ManagedObject {
    /// Which objects to fetch (nil: all of the entity's).
    public var predicate: Predicate<Result>? {
        get { resultPredicate ?? filter?.predicate as? Predicate<Result> }
        set {
            entityClass = Result.self
            resultPredicate = newValue
            filter = nil
        }
    }

    /// The order of the results; ties are broken by the order the rows were inserted.
    public var sortDescriptors: [SortDescriptor<Result>] {
        get { ordering?.descriptors as? [SortDescriptor<Result>] ?? resultSortDescriptors }
        set {
            entityClass = Result.self
            resultSortDescriptors = newValue
            ordering = nil
        }
    }

    /// A request for objects of `Result`'s entity.
    public init(predicate: Predicate<Result>? = nil, sortBy sortDescriptors: [SortDescriptor<Result>] = []) {
        self.entityClass = Result.self
        self.resultPredicate = predicate
        self.resultSortDescriptors = sortDescriptors
        self.resultType = .managedObjectResultType
    }
}

/// A request of objects, whose typed predicate and sort descriptors can be erased: how
/// `FetchRequest<ManagedObjectID>(objectRequest)` takes them over.
protocol ErasableFetchRequest {
    var erasedFilter: FetchFilter? { get }
    var erasedOrdering: FetchOrdering? { get }
}

extension FetchRequest: ErasableFetchRequest where Result: ManagedObject {
    var erasedFilter: FetchFilter? { filter ?? resultPredicate.map(FetchFilter.init) }
    var erasedOrdering: FetchOrdering? { ordering ?? FetchOrdering(resultSortDescriptors) }
}
