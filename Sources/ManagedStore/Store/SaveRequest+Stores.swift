import Foundation

/// A save of a coordinator with several stores, split into one save per store, and the
/// stores' outcomes put together again in the order of the context's objects.
struct StoreSaves {
    /// Where a part's inserts, updates and deletes stand in the whole save.
    struct Positions {
        var inserts: [Int] = []
        var updates: [Int] = []
        var deletes: [Int] = []
    }

    /// The parts, in the order of their stores' identifiers (see ``SQLiteStore/lockOrder(_:)``).
    private(set) var parts: [(store: SQLiteStore, request: SaveRequest)] = []
    private var positions: [Positions] = []
    private let whole: SaveRequest

    /// `request` split by the store of each object (`store(id)`); a link goes with its owner.
    init(_ request: SaveRequest, storeOf store: (ManagedObjectID) throws -> SQLiteStore) throws {
        whole = request
        var index: [ObjectIdentifier: Int] = [:]
        func part(_ id: ManagedObjectID) throws -> Int {
            let found = try store(id)
            if let existing = index[ObjectIdentifier(found)] { return existing }
            var empty = SaveRequest(mergePolicy: request.mergePolicy)
            (empty.transactionAuthor, empty.contextName) = (request.transactionAuthor, request.contextName)
            parts.append((found, empty))
            positions.append(Positions())
            index[ObjectIdentifier(found)] = parts.count - 1
            return parts.count - 1
        }
        for (position, insert) in request.inserts.enumerated() {
            let at = try part(insert.objectID)
            parts[at].request.inserts.append(insert)
            positions[at].inserts.append(position)
        }
        for (position, update) in request.updates.enumerated() {
            let at = try part(update.objectID)
            parts[at].request.updates.append(update)
            positions[at].updates.append(position)
        }
        for (position, delete) in request.deletes.enumerated() {
            let at = try part(delete.objectID)
            parts[at].request.deletes.append(delete)
            positions[at].deletes.append(position)
        }
        for link in request.links { parts[try part(link.owner)].request.links.append(link) }
        for part in parts { try part.request.checkIDs(belongTo: part.store) }
        let sorted = zip(parts, positions).sorted { SQLiteStore.lockOrder($0.0.store, $1.0.store) }
        parts = sorted.map(\.0)
        positions = sorted.map(\.1)
    }

    /// The parts' outcomes (in the order of ``parts``) as the outcome of the whole save.
    func merged(_ outcomes: [SaveOutcome]) -> SaveOutcome {
        var result = SaveOutcome()
        result.insertFates = Array(repeating: .deleted, count: whole.inserts.count)
        result.updateFates = Array(repeating: .deleted, count: whole.updates.count)
        result.deleteFates = Array(repeating: .deleted, count: whole.deletes.count)
        for (outcome, positions) in zip(outcomes, positions) {
            let offset = result.insertedRows.count
            for (fate, position) in zip(outcome.insertFates, positions.inserts) {
                if case .inserted(let row) = fate {
                    result.insertFates[position] = .inserted(row: row + offset)
                } else {
                    result.insertFates[position] = fate
                }
            }
            for (fate, position) in zip(outcome.updateFates, positions.updates) { result.updateFates[position] = fate }
            for (fate, position) in zip(outcome.deleteFates, positions.deletes) { result.deleteFates[position] = fate }
            result.insertedRows += outcome.insertedRows
            result.insertedTemporaryIDs += outcome.insertedTemporaryIDs
            result.updatedRows += outcome.updatedRows
            result.deletedIDs += outcome.deletedIDs
            result.adoptedIDs += outcome.adoptedIDs
        }
        return result
    }
}

extension SaveRequest {
    /// Throws ``ManagedStoreError/storeNotFound(url:)`` for a permanent ID of a store other
    /// than `store`: one removed from the coordinator since its object was read, whose key
    /// would name a row of another file.
    func checkIDs(belongTo store: SQLiteStore) throws {
        let number = store.persistentStore.number
        func check(_ id: ManagedObjectID) throws {
            guard id.isTemporaryID || id.storeNumber == number else {
                throw ManagedStoreError.storeNotFound(url: id.persistentStore?.url ?? store.url)
            }
        }
        for insert in inserts { try check(insert.objectID) }
        for update in updates { try check(update.objectID) }
        for delete in deletes { try check(delete.objectID) }
        for link in links {
            try check(link.owner)
            try check(link.member)
        }
    }
}
