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
/// A coordinator may hold several stores, each of its own configuration of the model (see
/// ``ManagedObjectModel/init(entities:views:configurations:)``), and presents them as one: a
/// fetch reads the store that holds its entity, a save writes each object to its entity's
/// store. ``remove(_:)`` closes a store.
public final class PersistentStoreCoordinator: Sendable {
    /// The model of the store's entities.
    public let managedObjectModel: ManagedObjectModel
    private let backend = Mutex(Stores())
    /// Contexts that merge every save made through this coordinator by another context.
    private let mergingContexts = Mutex<[WeakContext]>([])
    /// Watches stores for commits, those whose descriptions ask for remote change
    /// notifications, by store number.
    private let remoteChangeMonitors = Mutex<[UInt16: RemoteChangeMonitor]>([:])

    /// The open stores, in the order they were added, and which holds each entity.
    struct Stores {
        var list: [SQLiteStore] = []
        var byEntity: [String: SQLiteStore] = [:]

        mutating func add(_ store: SQLiteStore) {
            list.append(store)
            for entity in store.model.entities { byEntity[entity.name] = store }
        }

        /// The first store that already holds an entity of `model`, with those entities.
        func overlap(with model: ManagedObjectModel) -> (SQLiteStore, [String])? {
            for store in list {
                let shared = model.entities.map(\.name).filter { store.model.entitiesByName[$0] != nil }
                if !shared.isEmpty { return (store, shared) }
            }
            return nil
        }
    }

    /// A coordinator for `managedObjectModel`, with no store yet.
    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
    }

    deinit {
        remoteChangeMonitors.withLock { for monitor in $0.values { monitor.cancel() } }
    }

    /// The stores added so far, in the order they were added.
    public var persistentStores: [PersistentStore] {
        backend.withLock { $0.list.map(\.persistentStore) }
    }

    /// The store at `url` among those added, or nil (Core Data's `persistentStore(for:)`).
    public func persistentStore(for url: URL) -> PersistentStore? {
        let path = url.standardizedFileURL.path
        return persistentStores.first { $0.url.standardizedFileURL.path == path }
    }

    /// Opens the store `description` names, creating it when it does not exist. A description
    /// with a ``PersistentStoreDescription/configuration`` opens a store of that configuration's
    /// entities; the stores of one coordinator hold no entity twice.
    ///
    /// Throws ``ManagedStoreError/notAStore(url:reason:)`` for a file that is not a store,
    /// ``ManagedStoreError/incompatibleModel(url:differences:)`` for a store of another model,
    /// ``ManagedStoreError/storesOverlap(url:entities:otherURL:)`` for a store holding an entity
    /// another store of the coordinator holds, ``ManagedStoreError/storeAlreadyAdded(url:)`` for
    /// a store added twice; in every case the file is left as it was.
    @discardableResult
    public func addPersistentStore(with description: PersistentStoreDescription) throws -> PersistentStore {
        try managedObjectModel.validate()
        let model = try managedObjectModel.slice(forConfiguration: description.configuration)
        if let configuration = description.configuration, description.stagedMigrationManager != nil {
            throw ManagedStoreError.stagedMigrationFailed(
                url: description.url ?? URL(fileURLWithPath: "/dev/null"), stage: nil,
                reason:
                    "a staged migration migrates a store of the whole model, and this description names configuration \(configuration)"
            )
        }
        try backend.withLock { try Self.checkAddable(description, model: model, to: $0) }
        let store = try SQLiteStore.open(description, model: model)
        // The monitor first: a store whose notifications cannot be had is not added at all.
        let monitor =
            description.remoteChangeNotificationsEnabled && !description.isInMemory
                && !store.persistentStore.isImmutable
            ? try makeRemoteChangeMonitor(for: store.persistentStore, interval: description.remoteChangePollInterval)
            : nil
        do {
            try backend.withLock { stores in
                try Self.checkAddable(description, model: model, to: stores)
                stores.add(store)
            }
        } catch {
            monitor?.cancel()
            try? store.close()
            throw error
        }
        if let monitor { remoteChangeMonitors.withLock { $0[store.persistentStore.number] = monitor } }
        return store.persistentStore
    }

    /// Throws unless a store of `model` at `description`'s URL can join `stores`.
    private static func checkAddable(
        _ description: PersistentStoreDescription, model: ManagedObjectModel, to stores: Stores
    ) throws {
        let url = description.url ?? URL(fileURLWithPath: "/dev/null")
        if !description.isInMemory,
            stores.list.contains(where: { $0.url.standardizedFileURL.path == url.standardizedFileURL.path })
        {
            throw ManagedStoreError.storeAlreadyAdded(url: url)
        }
        if let (other, shared) = stores.overlap(with: model) {
            throw ManagedStoreError.storesOverlap(url: url, entities: shared, otherURL: other.url)
        }
    }

    /// Removes `store` from the coordinator (Core Data's `remove(_:)`): its write-ahead log is
    /// checkpointed into the file and truncated, and its connections closed, so that a program
    /// that removes its store before it ends leaves the store whole in one file. The contexts of
    /// the coordinator then cannot reach its entities (a fetch or save of them throws
    /// ``ManagedStoreError/noPersistentStore`` when no store is left, else
    /// ``ManagedStoreError/noStoreForEntity(_:)``), and a store may be added again.
    ///
    /// Throws ``ManagedStoreError/storeNotFound(url:)`` when `store` is not this coordinator's,
    /// and ``ManagedStoreError/storeBusy(url:reason:)`` when a pinned query generation kept the
    /// log from being truncated (the store is removed all the same).
    public func remove(_ store: PersistentStore) throws {
        let removed = try backend.withLock { stores -> SQLiteStore in
            guard let index = stores.list.firstIndex(where: { $0.persistentStore === store }) else {
                throw ManagedStoreError.storeNotFound(url: store.url)
            }
            let open = stores.list.remove(at: index)
            let rest = stores.list
            stores = Stores()
            for other in rest { stores.add(other) }
            return open
        }
        remoteChangeMonitors.withLock { $0.removeValue(forKey: store.number)?.cancel() }
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
            guard
                let store = backend.withLock({ $0.byEntity[entity.name]?.persistentStore }),
                url.host == store.identifier
            else { return nil }
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
        let store = try store(for: entity)
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

    /// Gives the coordinator `store`, already open (a staged migration's handlers' store), as
    /// its only store.
    func attach(_ store: SQLiteStore) {
        backend.withLock {
            $0 = Stores()
            $0.add(store)
        }
    }

    /// The store that holds `entity`: ``ManagedStoreError/noPersistentStore`` when there is
    /// none at all, ``ManagedStoreError/noStoreForEntity(_:)`` when none holds it.
    func store(for entity: EntityDescription) throws -> SQLiteStore {
        try backend.withLock { stores in
            if stores.list.count == 1, let only = stores.list.first, only.model.configurationName == nil {
                return only
            }
            if let store = stores.byEntity[entity.name] { return store }
            throw stores.list.isEmpty ? ManagedStoreError.noPersistentStore : .noStoreForEntity(entity.name)
        }
    }

    /// The store of `id`: for a permanent ID, the one it was read from or saved to, else
    /// ``ManagedStoreError/storeNotFound(url:)`` once that store is removed (its key could
    /// name a row of another file: an ID is carried across a removal by its URI, see
    /// ``managedObjectID(forURIRepresentation:)``); for a temporary ID, the store of its entity.
    func store(for id: ManagedObjectID) throws -> SQLiteStore {
        let number = id.storeNumber
        if number == 0 { return try store(for: id.entity) }
        return try backend.withLock { stores in
            if let found = stores.list.first(where: { $0.persistentStore.number == number }) { return found }
            if stores.list.isEmpty { throw ManagedStoreError.noPersistentStore }
            throw ManagedStoreError.storeNotFound(url: id.persistentStore?.url ?? URL(fileURLWithPath: "/dev/null"))
        }
    }

    /// Every open store, in the order they were added.
    func openStores() -> [SQLiteStore] {
        backend.withLock { $0.list }
    }

    /// The open stores among `stores` (every open store for nil or none), in the order they
    /// were added; ``ManagedStoreError/storeNotFound(url:)`` for one that is not open here.
    func openStores(among stores: [PersistentStore]?) throws -> [SQLiteStore] {
        let open = openStores()
        guard let stores, !stores.isEmpty else { return open }
        if let missing = stores.first(where: { store in !open.contains { $0.persistentStore === store } }) {
            throw ManagedStoreError.storeNotFound(url: missing.url)
        }
        return open.filter { store in stores.contains { $0 === store.persistentStore } }
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
    ///
    /// A token names one store. Of a coordinator with several stores, name the one with
    /// `fromStores` (nil or empty: the coordinator's only store); more than one throws
    /// ``ManagedStoreError/wrongStore(reason:)``.
    public func currentPersistentHistoryToken(
        fromStores stores: [PersistentStore]? = nil
    ) throws
        -> PersistentHistoryToken
    {
        let chosen = try openStores(among: stores)
        guard let store = chosen.first else { throw ManagedStoreError.noPersistentStore }
        guard chosen.count == 1 else {
            throw ManagedStoreError.wrongStore(
                reason:
                    "a history token names one store, and the coordinator has \(chosen.count): name one with fromStores"
            )
        }
        return try store.currentHistoryToken()
    }
}
