import Foundation
import Synchronization

/// Connects contexts to the store: it owns the SQLite connections (one serial writer, a pool of
/// readers, WAL mode) and the model, and it relays saves to the contexts that merge them
/// automatically.
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(with: PersistentStoreDescription(url: storeURL))
/// let context = ManagedObjectContext(concurrencyType: .privateQueue)
/// context.persistentStoreCoordinator = coordinator
/// ```
///
/// A coordinator holds one store; ``remove(_:)`` closes it.
public final class PersistentStoreCoordinator: Sendable {
    /// The model of the store's entities.
    public let managedObjectModel: ManagedObjectModel
    private let backend = Mutex<SQLiteStore?>(nil)
    /// Contexts that merge every save made through this coordinator by another context.
    private let mergingContexts = Mutex<[WeakContext]>([])
    /// Watches the store for commits, when its description asks for remote change notifications.
    private let remoteChangeMonitor = Mutex<RemoteChangeMonitor?>(nil)

    /// A coordinator for `managedObjectModel`, with no store yet.
    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
    }

    deinit {
        remoteChangeMonitor.withLock { $0?.cancel() }
    }

    /// The stores added so far (at most one).
    public var persistentStores: [PersistentStore] {
        backend.withLock { $0.map { [$0.persistentStore] } ?? [] }
    }

    /// Opens the store `description` names, creating it when it does not exist.
    ///
    /// Throws ``ManagedStoreError/notAStore(url:reason:)`` for a file that is not a store, and
    /// ``ManagedStoreError/incompatibleModel(url:differences:)`` for a store of another model;
    /// in both cases the file is left as it was.
    @discardableResult
    public func addPersistentStore(with description: PersistentStoreDescription) throws -> PersistentStore {
        if let existing = backend.withLock({ $0?.persistentStore }) {
            throw ManagedStoreError.storeAlreadyAdded(url: existing.url)
        }
        try managedObjectModel.validate()
        let store = try SQLiteStore.open(description, model: managedObjectModel)
        // The monitor first: a store whose notifications cannot be had is not added at all.
        let monitor =
            description.remoteChangeNotificationsEnabled && !description.isInMemory
                && !store.persistentStore.isImmutable
            ? try makeRemoteChangeMonitor(for: store.persistentStore, interval: description.remoteChangePollInterval)
            : nil
        do {
            try backend.withLock { current in
                if let current { throw ManagedStoreError.storeAlreadyAdded(url: current.persistentStore.url) }
                current = store
            }
        } catch {
            monitor?.cancel()
            throw error
        }
        if let monitor { remoteChangeMonitor.withLock { $0 = monitor } }
        return store.persistentStore
    }

    /// Removes `store` from the coordinator (Core Data's `remove(_:)`): its write-ahead log is
    /// checkpointed into the file and truncated, and its connections closed, so that a program
    /// that removes its store before it ends leaves the store whole in one file. The contexts of
    /// the coordinator then have no store (a fetch or save throws
    /// ``ManagedStoreError/noPersistentStore``), and a store may be added again.
    ///
    /// Throws ``ManagedStoreError/storeNotFound(url:)`` when `store` is not this coordinator's,
    /// and ``ManagedStoreError/storeBusy(url:reason:)`` when a pinned query generation kept the
    /// log from being truncated (the store is removed all the same).
    public func remove(_ store: PersistentStore) throws {
        let removed = try backend.withLock { current -> SQLiteStore in
            guard let open = current, open.persistentStore === store else {
                throw ManagedStoreError.storeNotFound(url: store.url)
            }
            current = nil
            return open
        }
        remoteChangeMonitor.withLock {
            $0?.cancel()
            $0 = nil
        }
        try removed.close()
    }

    // MARK: Remote changes

    /// Posted (on a background queue; the object is the coordinator) when the store changed,
    /// whoever committed the change: another process, another coordinator, or a context of this
    /// one, as Core Data's `NSPersistentStoreRemoteChange`. Only for a store whose description
    /// has ``PersistentStoreDescription/remoteChangeNotificationsEnabled``. Several commits in
    /// one poll interval make one notification. Read it with ``PersistentStoreRemoteChange``.
    public static let persistentStoreRemoteChangeNotification = Notification.Name("PersistentStoreRemoteChange")

    /// The keys of a remote change notification's userInfo (use `rawValue`).
    public struct RemoteChangeKey: RawRepresentable, Hashable, Sendable {
        /// The key as it appears in `userInfo`.
        public let rawValue: String
        /// The key named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The store's file URL.
        public static let storeURL = RemoteChangeKey(rawValue: "storeURL")
        /// The store's identifier (Core Data's `NSStoreUUIDKey`).
        public static let storeUUID = RemoteChangeKey(rawValue: "NSStoreUUID")
        /// The ``PersistentHistoryToken`` after the change (Core Data's `NSPersistentHistoryTokenKey`).
        public static let historyToken = RemoteChangeKey(rawValue: "historyToken")
    }

    private func makeRemoteChangeMonitor(
        for store: PersistentStore, interval: TimeInterval
    ) throws -> RemoteChangeMonitor {
        let url = store.url, identifier = store.identifier
        return try RemoteChangeMonitor(path: url.path, storeIdentifier: identifier, interval: interval) {
            [weak self] token in
            guard let self else { return }
            NotificationCenter.default.post(
                name: Self.persistentStoreRemoteChangeNotification, object: self,
                userInfo: [
                    RemoteChangeKey.storeURL.rawValue: url,
                    RemoteChangeKey.storeUUID.rawValue: identifier,
                    RemoteChangeKey.historyToken.rawValue: token,
                ])
        }
    }

    /// The metadata of the store file at `url`, read without opening it as a store (Core
    /// Data's `metadataForPersistentStore(ofType:at:)`): which model's entities it holds, with
    /// their version hashes. Throws ``ManagedStoreError/storeNotFound(url:)`` when there is
    /// none, ``ManagedStoreError/notAStore(url:reason:)`` for another kind of file.
    public static func metadataForPersistentStore(at url: URL) throws -> StoreMetadata {
        guard FileManager.default.fileExists(atPath: url.path) else { throw ManagedStoreError.storeNotFound(url: url) }
        let connection = try SQLiteConnection(path: url.path, mode: .init(readOnly: true, uri: false))
        guard let metadata = try StoreSchema.inspect(connection, url: url) else {
            throw ManagedStoreError.storeNotFound(url: url)
        }
        return StoreMetadata(metadata)
    }

    /// The object ID a URI from ``ManagedObjectID/uriRepresentation()`` stands for, or nil when
    /// it names another store, an unknown entity, or another process's temporary ID.
    public func managedObjectID(forURIRepresentation url: URL) -> ManagedObjectID? {
        guard url.scheme == "x-managedstore" else { return nil }
        let parts = url.path.split(separator: "/").map(String.init)
        guard parts.count == 2, let entity = managedObjectModel.entitiesByName[parts[0]] else { return nil }
        let reference = parts[1]
        if reference.hasPrefix("p"), let key = Int64(reference.dropFirst()), ManagedObjectID.canHold(key) {
            guard let store = backend.withLock({ $0?.persistentStore }), url.host == store.identifier else {
                return nil
            }
            return ManagedObjectID(entity: entity, store: store, primaryKey: key)
        }
        if reference.hasPrefix("t"), (url.host ?? "").isEmpty {
            let token = "t" + ManagedObjectID.processToken + "-"
            guard reference.hasPrefix(token), let number = Int64(reference.dropFirst(token.count)),
                ManagedObjectID.canHold(number)
            else { return nil }
            return ManagedObjectID.temporary(for: entity, number: number)
        }
        return nil
    }

    /// Runs `body`, a load of many rows of `entityName`, without the indexes that entity
    /// declares, then builds them again, whether `body` returns or throws: building an index
    /// once over all the rows costs a fraction of keeping it in order row by row. Uniqueness
    /// constraints stay enforced throughout. Fetches during `body` work, without those indexes.
    /// If the process ends in between, the next open of the store (not read-only) builds them.
    ///
    /// ```swift
    /// try await coordinator.deferringIndexes(of: "Note") {
    ///     try await importEveryNote()
    /// }
    /// ```
    public func deferringIndexes<T>(
        of entityName: String, isolation: isolated (any Actor)? = #isolation,
        during body: () async throws -> T
    ) async throws -> T {
        guard let entity = managedObjectModel.entitiesByName[entityName] else {
            throw ManagedStoreError.unknownEntity(entityName)
        }
        let store = try store()
        guard !entity.indexes.isEmpty, !store.persistentStore.isReadOnly else { return try await body() }
        try store.dropIndexes(of: entity)
        let result: T
        do {
            result = try await body()
        } catch {
            try? store.createMissingIndexes()
            throw error
        }
        try store.createMissingIndexes()
        return result
    }

    /// Gives the coordinator `store`, already open (a staged migration's handlers' store).
    func attach(_ store: SQLiteStore) {
        backend.withLock { $0 = store }
    }

    /// The loaded store, or ``ManagedStoreError/noPersistentStore``.
    func store() throws -> SQLiteStore {
        guard let store = backend.withLock({ $0 }) else { throw ManagedStoreError.noPersistentStore }
        return store
    }

    // MARK: Automatic merging

    func addMergingContext(_ context: ManagedObjectContext) {
        mergingContexts.withLock { contexts in
            contexts.removeAll { $0.context == nil || $0.context === context }
            contexts.append(WeakContext(context))
        }
    }

    func removeMergingContext(_ context: ManagedObjectContext) {
        mergingContexts.withLock { $0.removeAll { $0.context == nil || $0.context === context } }
    }

    /// Whether any context of this coordinator merges saves automatically
    /// (``ManagedObjectContext/automaticallyMergesChangesFromParent``): a batch request's caller
    /// asks for object IDs to relay only then.
    package var hasAutomaticallyMergingContexts: Bool {
        mergingContexts.withLock { $0.contains { $0.context != nil } }
    }

    /// Hands a save made by `saver` (or changes made outside any context, such as a batch
    /// insert's object IDs, when `saver` is the context that executed it) to every other context
    /// that merges automatically: the one way a change reaches them, whichever way it was made.
    package func relay(_ changes: ContextSaveChanges, from saver: ManagedObjectContext) {
        let receivers = mergingContexts.withLock { $0.compactMap(\.context) }
        for receiver in receivers where receiver !== saver {
            receiver.perform { receiver.mergeChanges(fromContextDidSave: changes) }
        }
    }
}

/// A weak reference to a context, for the lists of contexts that merge automatically.
final class WeakContext: Sendable {
    weak let context: ManagedObjectContext?
    init(_ context: ManagedObjectContext) { self.context = context }
}

extension PersistentStoreCoordinator {
    /// The token after the last transaction the store's persistent history holds (Core Data's
    /// `currentPersistentHistoryToken(fromStores:)`): history fetched after it holds only what
    /// is committed later. Transaction number 0 when nothing was recorded yet.
    public func currentPersistentHistoryToken() throws -> PersistentHistoryToken {
        try store().currentHistoryToken()
    }
}
