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
    /// Of a coordinator with several stores, the request reads (or purges) its
    /// ``PersistentHistoryChangeRequest/affectedStores``, all of them when nil, except that a
    /// request after a token reads the token's store. Several stores' results are one result:
    /// their transactions (or changes, or object IDs) store after store in the order the stores
    /// were added, their counts summed.
    @discardableResult
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        checkQueue()
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        var stores = coordinator.openStores()
        guard !stores.isEmpty else { throw ManagedStoreError.noPersistentStore }
        if let token = request.token {
            guard let store = stores.first(where: { $0.persistentStore.identifier == token.storeIdentifier }) else {
                throw ManagedStoreError.foreignHistoryToken(
                    token: token, storeIdentifier: stores.map(\.persistentStore.identifier).joined(separator: ", "))
            }
            return try store.execute(request, in: queryGeneration)
        }
        if let affected = request.affectedStores {
            if let missing = affected.first(where: { store in !stores.contains { $0.persistentStore === store } }) {
                throw ManagedStoreError.storeNotFound(url: missing.url)
            }
            stores = stores.filter { store in affected.contains { $0 === store.persistentStore } }
        }
        if stores.count == 1 { return try stores[0].execute(request, in: queryGeneration) }
        let results = try stores.map { try $0.execute(request, in: queryGeneration) }
        return PersistentHistoryResult(combining: results)
    }
}

extension PersistentHistoryResult {
    /// The results of one request on several stores (at least one) as one, of the first's kind.
    init(combining results: [PersistentHistoryResult]) {
        switch results[0] {
        case .status:
            self = .status(
                results.allSatisfy { result in
                    guard case .status(let done) = result else { return false }
                    return done
                })
        case .count:
            self = .count(results.reduce(0) { $0 + ($1.count ?? 0) })
        case .objectIDs:
            self = .objectIDs(
                results.flatMap { result -> [ManagedObjectID] in
                    guard case .objectIDs(let ids) = result else { return [] }
                    return ids
                })
        case .changes:
            self = .changes(results.flatMap { $0.changes ?? [] })
        case .transactions:
            self = .transactions(results.flatMap { $0.transactions ?? [] })
        }
    }
}
