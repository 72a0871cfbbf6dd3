import Foundation

extension ManagedObjectContext {
    /// The generation this context is pinned to, or nil when it reads the store live (Core
    /// Data's `queryGenerationToken`). Call on the context's queue.
    public var queryGenerationToken: QueryGenerationToken? {
        checkQueue()
        return queryGeneration.map { QueryGenerationToken(generation: $0) }
    }

    /// Pins the context to a generation of the store (Core Data's `setQueryGenerationFrom(_:)`):
    /// ``QueryGenerationToken/current`` for the store as it is now, another context's
    /// ``queryGenerationToken`` for that one's, ``QueryGenerationToken/unpinned`` (or nil) to
    /// read live again.
    ///
    /// While pinned, the context's fetches, counts, aggregates and faults read that generation
    /// (a read transaction held open for it), whatever other contexts and processes commit.
    /// The context moves to the newest generation when it saves, merges or is reset. Call on
    /// the context's queue. Only a context on a coordinator can be pinned (a child reads
    /// through its parent: pin the parent: asking throws).
    ///
    /// On an in-memory store the context stays unpinned and ``queryGenerationToken`` stays nil,
    /// as Core Data documents: "If you try to use query generations with a store that's not an
    /// NSSQLiteStoreType in WAL journal mode, your contexts gracefully revert to unpinned
    /// behavior" ("Accessing data when the store changes"). (An in-memory store has one
    /// connection, which cannot hold a read transaction beside its writes.)
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        checkQueue()
        guard let token, !token.isUnpinned else {
            queryGeneration = nil
            return
        }
        guard parent == nil else {
            throw ManagedStoreError.queryGenerationUnavailable(
                reason: "context \(self) is a child context, which reads through its parent: pin the parent")
        }
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        let stores = coordinator.openStores()
        guard !stores.isEmpty else { throw ManagedStoreError.noPersistentStore }
        if let generation = token.generation {
            guard generation.covers(stores) else {
                throw ManagedStoreError.queryGenerationUnavailable(
                    reason:
                        "the token is of other stores (\(generation.pins.map(\.store.identifier).joined(separator: ", ")))"
                )
            }
            queryGeneration = generation
        } else {
            queryGeneration = try QueryGeneration.pinning(stores)
        }
    }

    /// Moves a pinned context to the store's newest generation (after a save, merge or reset),
    /// as Core Data does. Stays pinned to the old one if a new one cannot be had.
    func advanceQueryGeneration() {
        guard queryGeneration != nil, let stores = persistentStoreCoordinator?.openStores(),
            let newer = try? QueryGeneration.pinning(stores)
        else { return }
        queryGeneration = newer
    }
}
