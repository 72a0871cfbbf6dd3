import Foundation

extension ManagedObjectContext {
    /// Runs a persistent history request against the store (Core Data's `execute(_:)` with an
    /// `NSPersistentHistoryChangeRequest`): a fetch reads the store (not this context's pending
    /// changes; in its query generation, when it is pinned to one), a purge writes it.
    ///
    /// ```swift
    /// let result = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token))
    /// for transaction in result.transactions ?? [] { … }
    /// ```
    ///
    /// Each store keeps its own history, its transactions numbered apart from another store's:
    /// of a coordinator with several stores, a request after a token reads the token's store,
    /// and any other names one store by ``PersistentHistoryChangeRequest/affectedStores`` (else
    /// ``ManagedStoreError/wrongStore(reason:)``), so that no history is read as a whole that
    /// is one store's part of it.
    @discardableResult
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        checkQueue()
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        let open = coordinator.openStores()
        guard !open.isEmpty else { throw ManagedStoreError.noPersistentStore }
        if let token = request.token {
            guard let store = open.first(where: { $0.persistentStore.identifier == token.storeIdentifier }) else {
                throw ManagedStoreError.foreignHistoryToken(
                    token: token, storeIdentifier: open.map(\.persistentStore.identifier).joined(separator: ", "))
            }
            return try store.execute(request, in: queryGeneration)
        }
        let stores = try coordinator.openStores(among: request.affectedStores)
        guard stores.count == 1 else {
            throw ManagedStoreError.wrongStore(
                reason:
                    "each of the coordinator's \(stores.count) stores keeps its own history, numbered apart: name one with the request's affectedStores (a request after a token reads the token's store)"
            )
        }
        return try stores[0].execute(request, in: queryGeneration)
    }
}
