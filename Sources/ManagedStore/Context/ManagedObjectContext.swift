import Dispatch
import Foundation
import Synchronization

/// A scratchpad of managed objects, tied to a queue: objects are fetched into it, changed in
/// it, and saved from it to its coordinator's store or to its parent context.
///
/// ```swift
/// let context = container.newBackgroundContext()
/// context.perform {
///     let note = Note(context: context)
///     note.title = "Groceries"
///     try? context.save()
/// }
/// ```
///
/// A context and its objects are touched only on the context's queue: inside ``perform(_:)``
/// or ``performAndWait(_:)``, or for a `.mainQueue` context, on the main queue.
/// `MANAGEDSTORE_CONCURRENCY_DEBUG=1` makes any other touch trap.
///
/// `@unchecked Sendable`: the context itself may be passed between queues, but its state is
/// confined to its queue: the object registry, the inserted/updated/deleted sets and the pending
/// notifications are read and written only by blocks running on `queue` (checked under
/// `MANAGEDSTORE_CONCURRENCY_DEBUG=1`). The few settings Core Data lets any thread set
/// (coordinator, parent, name, merge policy, automatic merging) are kept in a `Mutex`.
public final class ManagedObjectContext: @unchecked Sendable, CustomStringConvertible {
    /// Which queue a context runs on.
    public enum ConcurrencyType: Sendable, Hashable {
        /// The main queue: for the context that answers the user or front-end.
        case mainQueue
        /// A serial queue of the context's own: for background work.
        case privateQueue
    }

    /// The queue type chosen when the context was made.
    public let concurrencyType: ConcurrencyType
    let queue: DispatchQueue

    struct Settings {
        var coordinator: PersistentStoreCoordinator?
        var parent: ManagedObjectContext?
        var name: String?
        var transactionAuthor: String?
        var mergePolicy: MergePolicy = .error
        var automaticallyMergesChangesFromParent = false
        var children: [WeakContext] = []
        var shouldDeleteInaccessibleFaults = true
        var stalenessInterval: TimeInterval = -1
    }
    let settings = Mutex(Settings())

    // MARK: Queue-confined state (see the type's comment)

    /// Saved, fetched and faulted objects by ID.
    var registry = ObjectRegistry()
    /// Inserted objects, not yet saved (found by temporary ID through ``registeredObject(for:)``).
    var inserted = InsertedObjects()
    /// Objects written to since the last save (some may be back to their committed values).
    var updated: [ObjectIdentifier: ManagedObject] = [:]
    var deleted: [ObjectIdentifier: ManagedObject] = [:]
    private var blockDepth = 0
    /// The entity of the class last inserted with `init(context:)`, for the next one.
    private var lastInsertedEntity: (type: ObjectIdentifier, entity: EntityDescription)?
    var isSaving = false
    var pendingUpdated: [ObjectIdentifier: ManagedObject] = [:]
    var pendingDeleted: [ObjectIdentifier: ManagedObject] = [:]
    /// The store generation this context reads, when pinned (``setQueryGenerationFrom(_:)``).
    var queryGeneration: QueryGeneration?
    /// To-many members fetched by a request's prefetching, by owner and relationship name, as
    /// the store had them; read instead of the store until the context merges, refreshes,
    /// resets or saves.
    var prefetchedMembers: [PrefetchKey: [ManagedObject]] = [:]
    /// Unsaved links and unlinks of many-to-many relationships.
    var manyToMany = ManyToManyChanges()
    /// See ``undoManager``; and, while it is set, the links the current event changed, each
    /// with its state before (for the event's undo).
    var undoManagerStorage: UndoManager?
    var eventLinks: [(object: ManagedObject, relationship: ResolvedRelationship, other: ManagedObject, linked: Bool)] =
        []
    /// While it is set, the objects the current event brought back from deletion.
    var eventUndeleted: [ManagedObject] = []
    /// Whether a child context has read through this one or saved into it (see
    /// `ManagedObjectContext+ChildIDs.swift`): only then are retired temporary IDs kept.
    var hasChildren = false
    /// Deleted objects whose rows were gone when they were fired (see
    /// ``shouldDeleteInaccessibleFaults``): in ``deletedObjects``, never written.
    var inaccessible: [ObjectIdentifier: ManagedObject] = [:]
    /// Temporary IDs that became permanent here while children may know them, with the
    /// permanent IDs; and the other way round.
    var retiredTemporaryIDs: [ManagedObjectID: ManagedObjectID] = [:]
    var temporaryIDsByPermanent: [ManagedObjectID: ManagedObjectID] = [:]

    struct PrefetchKey: Hashable {
        let owner: ManagedObjectID
        let relationship: String
    }

    /// A context of `concurrencyType`. Give it a ``persistentStoreCoordinator`` or a ``parent``
    /// before using it.
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueue:
            queue = .main
            MainQueueMarker.install()
        case .privateQueue:
            queue = DispatchQueue(label: "ManagedStore.context")
        }
    }

    // MARK: Configuration

    /// The coordinator whose store this context saves to; a child context answers its parent's.
    /// Set it (or ``parent``) once, before the context is used.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        get {
            let (coordinator, parent) = settings.withLock { ($0.coordinator, $0.parent) }
            return coordinator ?? parent?.persistentStoreCoordinator
        }
        set {
            settings.withLock { settings in
                precondition(settings.parent == nil, "ManagedStore: a context has a parent or a coordinator, not both")
                settings.coordinator = newValue
            }
        }
    }

    /// The context this one saves to, for a child context (nil for one on a coordinator).
    /// Set it (or ``persistentStoreCoordinator``) once, before the context is used.
    public var parent: ManagedObjectContext? {
        get { settings.withLock { $0.parent } }
        set {
            precondition(newValue !== self, "ManagedStore: a context cannot be its own parent")
            settings.withLock { settings in
                precondition(
                    settings.coordinator == nil, "ManagedStore: a context has a parent or a coordinator, not both")
                settings.parent = newValue
            }
            if let newValue { newValue.settings.withLock { $0.children.append(WeakContext(self)) } }
        }
    }

    /// A name for logs and trap messages.
    public var name: String? {
        get { settings.withLock { $0.name } }
        set { settings.withLock { $0.name = newValue } }
    }

    /// The author recorded with this context's saves in the store's persistent history (Core
    /// Data's `transactionAuthor`), so that a reader of the history can tell its own changes
    /// from others'. Recorded with every save until set again.
    public var transactionAuthor: String? {
        get { settings.withLock { $0.transactionAuthor } }
        set { settings.withLock { $0.transactionAuthor = newValue } }
    }

    /// How a save resolves conflicts (default `.error`).
    public var mergePolicy: MergePolicy {
        get { settings.withLock { $0.mergePolicy } }
        set { settings.withLock { $0.mergePolicy = newValue } }
    }

    /// When true, the context merges, on its own queue, every save of its parent context or,
    /// for a context on a coordinator, every save another context makes through the coordinator.
    public var automaticallyMergesChangesFromParent: Bool {
        get { settings.withLock { $0.automaticallyMergesChangesFromParent } }
        set {
            let (coordinator, parent) = settings.withLock { settings in
                settings.automaticallyMergesChangesFromParent = newValue
                return (settings.coordinator, settings.parent)
            }
            if parent == nil, let coordinator {
                if newValue { coordinator.addMergingContext(self) } else { coordinator.removeMergingContext(self) }
            }
        }
    }

    /// When true, the context keeps every object it has registered alive until ``reset()``; by
    /// default it keeps only objects with unsaved changes, and lets the others go when nothing
    /// else holds them. Set on the context's queue.
    public var retainsRegisteredObjects: Bool {
        get { checkQueue(); return registry.retainsAll }
        set { checkQueue(); registry.retainsAll = newValue }
    }

    /// The model of the context's coordinator.
    public var model: ManagedObjectModel {
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("ManagedStore: context \(self) has neither a coordinator nor a parent")
        }
        return coordinator.managedObjectModel
    }

    public var description: String {
        let kind = concurrencyType == .mainQueue ? "mainQueue" : "privateQueue"
        return "'\(name ?? "unnamed")' (\(kind))"
    }

    // MARK: Queues

    /// True when the calling code may touch this context: it runs a block of this context (or
    /// of another context's `performAndWait` called from one), or this is a main-queue context
    /// and the code runs on the main thread or the main queue.
    var isOnQueue: Bool {
        if QueueOwnership.owns(self) { return true }
        guard concurrencyType == .mainQueue else { return false }
        return Self.isOnMainQueue || QueueOwnership.holdsMainQueue
    }

    /// True on the main thread, or in a block the main queue runs.
    private static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: MainQueueMarker.key) != nil
    }

    /// Traps when MANAGEDSTORE_CONCURRENCY_DEBUG=1 and the caller is not on the context's queue.
    @inline(__always)
    func checkQueue(_ function: StaticString = #function) {
        if ConcurrencyDebug.isEnabled, !isOnQueue {
            fatalError(
                "ManagedStore concurrency violation: context \(self) was used (\(function)) on \(ConcurrencyDebug.currentThreadDescription), outside its queue. Use perform or performAndWait."
            )
        }
    }

    /// Runs `block` asynchronously on the context's queue; blocks run one at a time, in the
    /// order they were submitted.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { self.run(block) }
    }

    /// Runs `block` on the context's queue and waits for it. Reentrant: called from the
    /// context's own queue, it runs the block at once.
    public func performAndWait<T, E: Error>(_ block: () throws(E) -> T) throws(E) -> T {
        if isOnQueue { return try run(block) }
        // A caller on the main queue keeps holding it while it waits here (the block runs on
        // the caller's thread): a main-queue context touched inside, as a child's parent, is
        // then run at once instead of waiting for the main queue that this very wait blocks.
        let fromMainQueue = Self.isOnMainQueue
        let result: Result<T, E> = queue.sync {
            func body() -> Result<T, E> {
                run { () -> Result<T, E> in
                    do throws(E) { return .success(try block()) } catch { return .failure(error) }
                }
            }
            return fromMainQueue ? QueueOwnership.holdingMainQueue(body) : body()
        }
        return try result.get()
    }

    /// Runs `block` on the context's queue, after the blocks already submitted, and returns its
    /// value.
    public func perform<T: Sendable, E: Error>(_ block: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async {
                let result = self.run { () -> Result<T, E> in
                    do throws(E) { return .success(try block()) } catch { return .failure(error) }
                }
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    private func run<T, E: Error>(_ block: () throws(E) -> T) throws(E) -> T {
        QueueOwnership.enter(self)
        blockDepth += 1
        defer {
            blockDepth -= 1
            if blockDepth == 0 {
                processPendingChanges()
                registry.sweepIfGrown()
            }
            QueueOwnership.leave(self)
        }
        return try block()
    }

    // MARK: Registered objects

    /// True when the context has unsaved insertions, updates or deletions.
    public var hasChanges: Bool {
        checkQueue()
        return !inserted.isEmpty || !deleted.isEmpty || !updated.isEmpty
    }

    /// Objects inserted and not yet saved.
    public var insertedObjects: Set<ManagedObject> { checkQueue(); return Set(inserted.objects) }
    /// Objects changed since the last save (including those set back to their saved values,
    /// as in Core Data).
    public var updatedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(updated.values.filter { !$0.isDeletedState })
    }
    /// Objects deleted and not yet saved.
    public var deletedObjects: Set<ManagedObject> { checkQueue(); return Set(deleted.values) }
    /// Every object the context holds now.
    public var registeredObjects: Set<ManagedObject> {
        checkQueue()
        return Set(registry.allObjects).union(inserted.objects)
    }

    /// The entity whose objects are instances of `type`, for `init(context:)`.
    func entityForInsertion(of type: ManagedObject.Type) -> EntityDescription {
        checkQueue()
        if let last = lastInsertedEntity, last.type == ObjectIdentifier(type) { return last.entity }
        guard let entity = model.entity(for: type) else {
            preconditionFailure("ManagedStore: the model of context \(self) has no entity for class \(type)")
        }
        lastInsertedEntity = (ObjectIdentifier(type), entity)
        return entity
    }

    /// Inserts an object made without a context (or deleted in this one and not yet saved).
    public func insert(_ object: ManagedObject) {
        insert(object, awakening: true)
    }

    /// Inserts `object`; `awakening`: runs its `awakeFromInsert()`, which Core Data runs "when
    /// the receiver is first inserted into a managed object context" (not when an undo or redo
    /// brings an insertion back).
    func insert(_ object: ManagedObject, awakening: Bool) {
        checkQueue()
        if object.managedObjectContext === self {
            if object.isDeletedState {
                object.isDeletedState = false
                deleted[ObjectIdentifier(object)] = nil
                pendingDeleted[ObjectIdentifier(object)] = nil
                if undoManagerStorage != nil { eventUndeleted.append(object) }
            }
            return
        }
        precondition(object.managedObjectContext == nil, "ManagedStore: \(object.objectID) belongs to another context")
        precondition(
            object.objectID.isTemporaryID,
            "ManagedStore: \(object.objectID) is already saved; use object(with:) to bring it into a context")
        object.managedObjectContext = self
        inserted.add(object)
        if awakening { object.awakeFromInsert() }
    }

    /// Marks an object for deletion at the next save (an inserted one is simply dropped).
    public func delete(_ object: ManagedObject) {
        checkQueue()
        precondition(
            object.managedObjectContext === self, "ManagedStore: \(object.objectID) does not belong to context \(self)")
        let key = ObjectIdentifier(object)
        if object.isDeletedState { return }
        object.prepareForDeletion()
        if object.isDeletedState { return }  // (it deleted itself)
        if !object.entity.resolvedRelationships.isEmpty {
            // Marked first, so that a cascade back to this object stops here.
            object.isDeletedState = true
            propagateDeletion(of: object)
            object.isDeletedState = false
        }
        if object.isInsertedState {
            inserted.remove(object)
            object.managedObjectContext = nil
            pendingUpdated[key] = nil
            // Listed as inserted before: listed as deleted now (objectsDidChange), as in Core Data.
            if object.insertionAnnounced { pendingDeleted[key] = object }
            return
        }
        if object.isFaultState { fulfillFault(object) }
        object.isDeletedState = true
        deleted[key] = object
        updated[key] = nil
        pendingDeleted[key] = object
    }

    /// The object for `objectID`: the registered one, or else a fault (no I/O happens; the
    /// fault loads its values when first read, and traps then if its row is gone).
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        checkQueue()
        if let object = lookUp(objectID) { return object }
        let object = objectID.entity.managedObjectClass.init(entity: objectID.entity, insertInto: nil)
        object.objectID = objectID
        object.values = []
        object.isFaultState = true
        object.managedObjectContext = self
        register(object)
        return object
    }

    /// The object for `objectID` with its values loaded; throws
    /// ``ManagedStoreError/objectNotFound(_:)`` when it has no row (or no object in a parent).
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkQueue()
        if let object = lookUp(objectID), !object.isFaultState { return object }
        guard let snapshot = try snapshot(for: objectID) else { throw ManagedStoreError.objectNotFound(objectID) }
        let object = self.object(with: objectID)
        if object.isFaultState { fill(object, with: snapshot) }
        return object
    }

    /// The object registered for `objectID`, if the context holds one; never does I/O.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        checkQueue()
        return lookUp(objectID)
    }

    /// The object this context holds for `id`: registered, or inserted and not yet saved.
    func lookUp(_ id: ManagedObjectID) -> ManagedObject? {
        if let object = registry[id] { return object }
        if let object = inserted.object(for: id) { return object }
        // A temporary ID a child still uses for an object saved here since.
        if id.isTemporaryID, let permanent = retiredTemporaryIDs[id] { return registry[permanent] }
        return nil
    }

    /// Gives permanent IDs to inserted objects before they are saved (reserving their rows'
    /// keys in the store), so that their IDs can be passed around and stay valid.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue()
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        let store = try coordinator.store()
        var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
        for object in objects where object.objectID.isTemporaryID {
            byEntity[ObjectIdentifier(object.entity), default: []].append(object)
        }
        var permanent: [ManagedObjectID: ManagedObjectID] = [:]
        for group in byEntity.values {
            let ids = try store.obtainPermanentIDs(group.count, for: group[0].entity)
            for (object, id) in zip(group, ids) {
                permanent[object.objectID] = id
                reassign(object, to: id)
            }
        }
        rewriteReferences(permanent)
    }

    func register(_ object: ManagedObject) {
        registry.add(object)
    }

    func unregister(_ object: ManagedObject) {
        registry.remove(object)
    }

    /// Moves an object to a new ID (a temporary one becoming permanent).
    func reassign(_ object: ManagedObject, to id: ManagedObjectID) {
        let oldID = object.objectID
        guard oldID != id else { return }
        retire(oldID, for: id)
        object.objectID = id
        if object.isInsertedState {
            inserted.invalidateIndex()
        } else {
            registry.move(object, from: oldID)
        }
    }

    /// Called by an object whose value changed.
    func noteUpdated(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        if updated[key] == nil { updated[key] = object }
        pendingUpdated[key] = object
    }

    /// Drops an object from the context: it leaves every set and the registry.
    func evict(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        inserted.remove(object)
        updated[key] = nil
        deleted[key] = nil
        pendingUpdated[key] = nil
        pendingDeleted[key] = nil
        unregister(object)
        object.managedObjectContext = nil
    }

    // MARK: Faults and snapshots

    /// Loads a fault's values from the store or the parent context; traps if its row is gone
    /// (as Core Data raises), since a property getter cannot throw.
    func fulfillFault(_ object: ManagedObject) {
        if object.hasCachedRow, object.cachedRowStamp != .max,
            object.cachedRowStamp == (try? store().writeCount.load(ordering: .sequentiallyConsistent))
        {
            // No save through this coordinator since the fetch: the row is as it was read
            // (another process's writes reach the context by merging, as in Core Data).
            let staleness = stalenessInterval
            if staleness < 0 || Double(DispatchTime.now().uptimeNanoseconds - object.cachedRowTime) <= staleness * 1e9 {
                object.isFaultState = false
                object.awakeFromFetch()
                return
            }
        }
        if object.hasCachedRow { forgetCachedRow(of: object) }
        let snapshot: RowSnapshot?
        do {
            snapshot = try self.snapshot(for: object.objectID)
        } catch {
            preconditionFailure("ManagedStore: could not load the fault \(object.objectID): \(error)")
        }
        guard let snapshot else {
            guard shouldDeleteInaccessibleFaults else {
                preconditionFailure(
                    "ManagedStore: the fault \(object.objectID) cannot be fulfilled: its row was deleted (and shouldDeleteInaccessibleFaults is false). Use existingObject(with:) to check first."
                )
            }
            deleteInaccessible(object)
            return
        }
        fill(object, with: snapshot)
    }

    func fill(_ object: ManagedObject, with snapshot: RowSnapshot) {
        object.values = snapshot.values
        object.committedValues = snapshot.values
        object.version = snapshot.version
        object.isFaultState = false
        object.awakeFromFetch()
    }

    /// The values of `id` as this context's source has them: the store for a context on a
    /// coordinator, the parent's current values for a child.
    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        if let parent {
            let sent = try parent.performAndWait { () throws -> RowsForChild? in
                try parent.currentSnapshot(for: parent.resolvedFromChild(id)).map { parent.forChild([$0]) }
            }
            return sent.map { fromParent($0) }?.first
        }
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        return try coordinator.store().row(for: id, in: queryGeneration)
    }

    /// This context's current values of `id` (unsaved changes included), for a child.
    func currentSnapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        if let object = lookUp(id) {
            if object.isDeletedState { return nil }
            if object.isFaultState {
                guard let snapshot = try snapshot(for: id) else { return nil }
                fill(object, with: snapshot)
            }
            return RowSnapshot(id: id, version: object.version, values: object.values)
        }
        return try snapshot(for: id)
    }
}

/// Marks the main queue, so that code running in a main-queue block on a thread other than the
/// main thread (as after `dispatchMain()`) counts as being on the main queue.
enum MainQueueMarker {
    static let key = DispatchSpecificKey<Bool>()
    private static let installed: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()
    static func install() { _ = installed }
}
