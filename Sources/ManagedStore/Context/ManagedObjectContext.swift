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
    var lastInsertedEntity: (type: ObjectIdentifier, entity: EntityDescription)?
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
    /// The many-to-many links and unlinks of the current event (since the last
    /// objectsDidChange), by side, for ``ManagedObject/changedValuesForCurrentEvent()``.
    var eventMemberChanges: [(owner: ObjectIdentifier, relationship: String, member: ManagedObjectID, linked: Bool)] =
        []
    /// While it is set, the objects the current event brought back from deletion.
    var eventUndeleted: [ManagedObject] = []
    /// Whether a child context has read through this one or saved into it (see
    /// `ManagedObjectContext+ChildIDs.swift`): only then are retired temporary IDs kept.
    var hasChildren = false
    /// What this context's objects hold of it (see ``ContextLink``).
    let link = ContextLink()
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
        link.context = self
    }

    deinit {
        link.isGone.store(true, ordering: .releasing)
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
