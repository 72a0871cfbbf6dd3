import Foundation

/// Keeps the results of a fetch request up to date with a context, cut into sections, and
/// reports every change to them with index paths, as Core Data's `NSFetchedResultsController`
/// does for a table view.
///
/// ```swift
/// var request = FetchRequest<Note>(sortBy: [SortDescriptor(\.title)])
/// request.fetchBatchSize = 50
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: container.viewContext)
/// controller.delegate = table                      // a FetchedResultsControllerDelegate
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(indexes: [0, 0]))
/// ```
///
/// Rules, as in Core Data:
/// - The request must have at least one sort descriptor; with a section key path, the first
///   sort descriptor must sort by that same attribute (either way round), so that each
///   section's objects are together. ``performFetch()`` throws
///   ``ManagedStoreError/unsupportedFetch(entity:reason:)`` otherwise.
/// - The controller and its objects are used on its context's queue only.
/// - It follows changes only while it has a ``delegate`` or a ``changes`` stream is listened
///   to ("no tracking" otherwise: the results stay as fetched). Then, after each
///   `objectsDidChange` of its context that touches its entity (local changes at the end of a
///   `perform` or at `processPendingChanges()`, a merge of another context's save, automatic
///   or not, a `reset()`) and after each save of its context, it fetches the request's IDs and
///   sort keys again, diffs them with what it had, and reports the difference (see
///   ``FetchedResultsChangeSet`` for the rules). Cost: one SQL query for the IDs and sort keys
///   of every result (every column, without a batch size) and a linear diff, per such
///   notification; objects already held are not read again. Like Core Data's, it does not
///   follow changes to other entities that a predicate reads through a relationship.
/// - It knows only what the context announces: a change the context makes without an
///   `objectsDidChange` is seen with the next one. At this version that is a change to, or the
///   deletion of, an unsaved inserted object, `rollback()`, and a merged update of a row whose
///   object the context does not hold (a merge refreshes, and lists, only the objects held).
/// - The IDs of unsaved objects are temporary: after a save, later rounds name those objects by
///   their permanent IDs (``ContextSaveChanges/temporaryObjectIDs`` maps one to the other).
/// - With a ``FetchRequest/fetchBatchSize`` of N > 0, it keeps every result's ID and sort keys
///   but holds objects only for the last two batches of N read through ``object(at:)``. The
///   context lets the others go when it next sweeps its registry, unless something else holds
///   them, they have unsaved changes, or ``ManagedObjectContext/retainsRegisteredObjects``.
open class FetchedResultsController<Result: ManagedObject> {
    /// The request whose results the controller keeps. A change takes effect at the next
    /// ``performFetch()``, as in Core Data.
    public var fetchRequest: FetchRequest<Result>
    /// The context the controller fetches in and follows.
    public let managedObjectContext: ManagedObjectContext
    /// The attribute whose value names each object's section, or nil for one section.
    public let sectionNameKeyPath: AnyKeyPath?
    /// Told about each round of changes, on the context's queue. Held weakly.
    public weak var delegate: (any FetchedResultsControllerDelegate<Result>)?
    /// The error of the last fetch made to follow a change, if it failed (the results then
    /// stay as they were, unreported, until a later change fetches successfully); nil after a
    /// successful one.
    public internal(set) var trackingError: (any Error)?

    // MARK: State, confined to the context's queue like the controller

    /// The request as ``performFetch()`` last ran it (what changes are followed with).
    var activeRequest: FetchRequest<Result>?
    var entity: EntityDescription?
    /// The results' IDs, sort keys and sections; nil before ``performFetch()``.
    var arrangement: FetchedResultsArrangement?
    /// The batch size of ``activeRequest`` (0: every object is held, in `allObjects`).
    var batchSize = 0
    /// Every result, in order, when there is no batch size.
    var allObjects: [Result] = []
    /// The batches made last, most recent first (at most two), with a batch size.
    var batches: [(index: Int, objects: [Result])] = []
    /// The results that had a temporary ID when fetched (inserted, unsaved), by that ID: their
    /// IDs change when they are saved, without any other change to report.
    var temporaries: [ManagedObjectID: Result] = [:]
    var observers: [any NSObjectProtocol] = []
    let streams = FetchedResultsChangeStreams()
    /// Set while a round of changes is being worked out and reported; a notification that
    /// comes meanwhile (a delegate that changes the context) waits in `pendingRefresh`.
    var isRefreshing = false
    var pendingRefresh: Refresh?

    /// A controller of `fetchRequest`'s results in `managedObjectContext`, in sections named by
    /// the `String` attribute `sectionNameKeyPath` (one section when nil).
    ///
    /// ```swift
    /// let byTitle = FetchedResultsController(
    ///     fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.title), SortDescriptor(\.created)]),
    ///     managedObjectContext: context, sectionNameKeyPath: \.title)
    /// ```
    public convenience init(
        fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: KeyPath<Result, String>? = nil
    ) {
        self.init(
            fetchRequest: fetchRequest, managedObjectContext: managedObjectContext, sectionKeyPath: sectionNameKeyPath)
    }

    /// A controller whose sections are named by an attribute of any type: sections by `stars`
    /// (an `Int16`) are named "0", "1", …; an optional attribute's nil names the section "".
    ///
    /// ```swift
    /// FetchedResultsController(fetchRequest: FetchRequest<Note>(sortBy: [SortDescriptor(\.stars, order: .reverse)]),
    ///                          managedObjectContext: context, sectionNameKeyPath: \.stars)
    /// ```
    public convenience init<SectionKey: AttributeRepresentable>(
        fetchRequest: FetchRequest<Result>,
        managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: KeyPath<Result, SectionKey>
    ) {
        self.init(
            fetchRequest: fetchRequest, managedObjectContext: managedObjectContext, sectionKeyPath: sectionNameKeyPath)
    }

    /// The designated initializer, which the others call and a subclass inherits: sections
    /// named by the attribute `sectionKeyPath` reads (any key path of `Result`; one that is not
    /// an attribute makes ``performFetch()`` throw), or one section when nil.
    public init(
        fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext, sectionKeyPath: AnyKeyPath?
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionKeyPath
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        streams.finishAll()
    }

    // MARK: Fetching

    /// Runs ``fetchRequest`` and keeps its results; from then on, follows changes (see the
    /// type's discussion). Reports nothing to the delegate, as in Core Data.
    ///
    /// Throws ``ManagedStoreError/unsupportedFetch(entity:reason:)`` when the request has no
    /// sort descriptor, when the section key path is not an attribute, or when the first sort
    /// descriptor does not sort by the section attribute; and whatever the fetch throws.
    public func performFetch() throws {
        let context = managedObjectContext
        context.checkQueue()
        let entity = try context.entity(for: Result.self)
        let request = fetchRequest
        guard let first = request.sortDescriptors.first else {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name, reason: "a fetched results controller needs at least one sort descriptor")
        }
        if let sectionNameKeyPath {
            guard let slot = entity.slot(forKeyPath: sectionNameKeyPath) else {
                throw ManagedStoreError.unsupportedFetch(
                    entity: entity.name, reason: "the section name key path is not an attribute of \(entity.name)")
            }
            let name = entity.storedProperties[slot].name
            // A key path through a to-one reads the relationship's slot: its sections would be
            // named by the related rows' keys. Refused, never named so.
            guard entity.storedProperties[slot].type != .objectID else {
                throw ManagedStoreError.unsupportedFetch(
                    entity: entity.name,
                    reason:
                        "the section name key path goes through the to-one relationship '\(name)'; sections are named by an attribute of \(entity.name)"
                )
            }
            guard let keyPath = first.keyPath, entity.slot(forKeyPath: keyPath) == slot else {
                throw ManagedStoreError.unsupportedFetch(
                    entity: entity.name,
                    reason: "sections by '\(name)' need the first sort descriptor to sort by '\(name)'")
            }
        }
        let batchSize = max(0, request.fetchBatchSize)
        let (rows, objects) = try fetchResults(request, batchSize: batchSize)
        self.entity = entity
        self.activeRequest = request
        self.batchSize = batchSize
        install(rows: rows, objects: objects)
        startObserving()
    }

    // MARK: Results

    /// Every result, in order; nil before ``performFetch()``. With a batch size, every object
    /// is made (or found) at this call: read them with ``object(at:)`` to keep memory bounded.
    public var fetchedObjects: [Result]? {
        managedObjectContext.checkQueue()
        guard let arrangement else { return nil }
        return batchSize == 0 ? allObjects : materialize(arrangement.ids[...])
    }

    /// The sections, in order (one, possibly empty, without a section key path); nil before
    /// ``performFetch()``.
    public var sections: [FetchedResultsSectionInfo<Result>]? {
        managedObjectContext.checkQueue()
        guard let arrangement else { return nil }
        return arrangement.sections.indices.map { sectionInfo(at: $0, in: arrangement) }
    }

    /// The object at `indexPath` (section, item). An index path outside the results is a
    /// programmer error and traps, as Core Data raises.
    public func object(at indexPath: IndexPath) -> Result {
        managedObjectContext.checkQueue()
        guard let arrangement else {
            preconditionFailure("ManagedStore: object(at:) was called before performFetch()")
        }
        guard let offset = arrangement.offset(of: indexPath) else {
            let where_ =
                indexPath.count == 2
                ? "index \(indexPath[1]) in section at index \(indexPath[0])" : "index path \(indexPath)"
            preconditionFailure(
                "ManagedStore: no object at \(where_) of the fetched results (\(arrangement.sections.map(\.count)) objects by section)"
            )
        }
        return object(atOffset: offset)
    }

    /// The index path of `object` in the results, or nil when it is not among them (or belongs
    /// to another context).
    public func indexPath(forObject object: Result) -> IndexPath? {
        managedObjectContext.checkQueue()
        guard object.managedObjectContext === managedObjectContext, arrangement != nil else { return nil }
        normalizeTemporaryIDs()
        guard let arrangement, let offset = arrangement.offsets[object.objectID] else { return nil }
        if batchSize == 0 && allObjects[offset] !== object { return nil }
        return arrangement.indexPath(ofOffset: offset)
    }

    /// A stream of the rounds of changes, each as the delegate is told it but with object IDs.
    /// Each access makes a new stream, which receives every round from then on, until its task
    /// is cancelled or the controller goes away. While one is listened to, the controller
    /// follows changes even without a delegate.
    ///
    /// ```swift
    /// for await changes in controller.changes {
    ///     print(changes.objectChanges)                 // [.insert(id, at: [0, 3])]
    /// }
    /// ```
    public var changes: AsyncStream<FetchedResultsChangeSet> { streams.makeStream() }

    // MARK: Section index

    /// The titles of the section index (Core Data's `sectionIndexTitles`): each section's
    /// ``sectionIndexTitle(forSectionName:)``, in the sections' order, each title once (sections
    /// "Apple" and "Avocado" share "A"); empty before ``performFetch()``. Override for another
    /// index.
    open var sectionIndexTitles: [String] {
        managedObjectContext.checkQueue()
        var seen = Set<String>()
        return (arrangement?.sections ?? []).compactMap { sectionIndexTitle(forSectionName: $0.name) }.filter {
            seen.insert($0).inserted
        }
    }

    /// The section index's title for the section named `sectionName`: the ``delegate``'s
    /// `controller(_:sectionIndexTitleForSectionName:)`, which by default is
    /// ``defaultSectionIndexTitle(forSectionName:)``. Override for another title.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if let delegate { return delegate.controller(self, sectionIndexTitleForSectionName: sectionName) }
        return defaultSectionIndexTitle(forSectionName: sectionName)
    }

    /// Core Data's default index title: the section name's first letter (a whole `Character`),
    /// capitalized; nil for an empty name.
    public func defaultSectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    /// The section that the index entry `title`, at `sectionIndex` in ``sectionIndexTitles``,
    /// goes to (Core Data's `section(forSectionIndexTitle:at:)`, which a table's index asks):
    /// the first section with that title; for a title no section has, the first section whose
    /// title comes after it (the last section if none does, 0 without sections). Override for
    /// another mapping.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        managedObjectContext.checkQueue()
        let titles = (arrangement?.sections ?? []).map { sectionIndexTitle(forSectionName: $0.name) ?? "" }
        if let exact = titles.firstIndex(of: title) { return exact }
        return titles.firstIndex { $0 > title } ?? max(0, titles.count - 1)
    }

    /// The information of section `index` of `arrangement` (the current one, or the one before
    /// a round of changes, for a deleted section).
    func sectionInfo(
        at index: Int, in arrangement: FetchedResultsArrangement,
        objects: ((ArraySlice<ManagedObjectID>, Range<Int>) -> [Result])? = nil
    ) -> FetchedResultsSectionInfo<Result> {
        let section = arrangement.sections[index]
        let range = section.start..<section.start + section.count
        let ids = arrangement.ids[range]
        if let objects {
            return FetchedResultsSectionInfo(
                name: section.name, indexTitle: sectionIndexTitle(forSectionName: section.name),
                numberOfObjects: section.count
            ) { objects(ids, range) }
        }
        if batchSize == 0 {
            let held = allObjects[range]
            return FetchedResultsSectionInfo(
                name: section.name, indexTitle: sectionIndexTitle(forSectionName: section.name),
                numberOfObjects: section.count
            ) { Array(held) }
        }
        return FetchedResultsSectionInfo(
            name: section.name, indexTitle: sectionIndexTitle(forSectionName: section.name),
            numberOfObjects: section.count
        ) { self.materialize(ids) }
    }
}
