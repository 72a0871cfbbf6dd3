import Foundation

extension FetchedResultsController {
    /// How many objects the controller holds now (every result without a batch size; the
    /// batches kept with one), for tests of the bound.
    var heldObjectCount: Int { allObjects.count + batches.reduce(0) { $0 + $1.objects.count } }

    /// The result at `offset`: held, or made with the rest of its batch. Making a batch lets
    /// go of the one read least recently when more than two are held.
    func object(atOffset offset: Int) -> Result {
        guard batchSize > 0 else { return allObjects[offset] }
        let index = offset / batchSize
        if let position = batches.firstIndex(where: { $0.index == index }) {
            if position != 0 { batches.insert(batches.remove(at: position), at: 0) }
            return batches[0].objects[offset - index * batchSize]
        }
        guard let arrangement else { preconditionFailure("ManagedStore: object(at:) was called before performFetch()") }
        let range = index * batchSize..<min(arrangement.count, (index + 1) * batchSize)
        batches.insert((index, materialize(arrangement.ids[range])), at: 0)
        if batches.count > 2 {
            batches.removeLast()
            // The objects of that batch that nobody else holds can go now, not only at the end
            // of the block (a loop over every result runs in one).
            managedObjectContext.registry.sweepIfGrown()
        }
        return batches[0].objects[offset - range.lowerBound]
    }

    /// The objects of `ids`, in order: those the context holds as they are, the others from the
    /// store in one query per 500 (through the parent, one at a time, for a child context).
    /// An ID whose row is gone gives a fault, which traps when read, as Core Data's does.
    func materialize(_ ids: ArraySlice<ManagedObjectID>) -> [Result] {
        let context = managedObjectContext
        var objects: [Result?] = []
        objects.reserveCapacity(ids.count)
        var missing: [(position: Int, id: ManagedObjectID)] = []
        for id in ids {
            if let object = temporaries[id] ?? context.lookUp(id) as? Result, !object.isFaultState {
                objects.append(object)
            } else {
                missing.append((objects.count, id))
                objects.append(nil)
            }
        }
        guard !missing.isEmpty else { return objects.map { $0! } }
        var loaded: [ManagedObjectID: Result] = [:]
        if context.parent == nil, let entity, let store = try? context.store(for: entity) {
            let stored = missing.map(\.id).filter { $0.persistentStore === store.persistentStore }
            var start = 0
            while start < stored.count {
                let chunk = Array(stored[start..<min(start + 500, stored.count)])
                start += chunk.count
                // A failed read leaves faults, which read their rows themselves when touched.
                for row in (try? store.fetchRows(chunk, entity: entity, in: context.queryGeneration)) ?? [] {
                    if let object = context.materialize(row) as? Result { loaded[row.id] = object }
                }
            }
        }
        for (position, id) in missing {
            objects[position] =
                loaded[id]
                ?? (context.parent != nil ? (try? context.existingObject(with: id)) as? Result : nil)
                ?? context.object(with: id) as? Result
                ?? detachedObject(for: id)
        }
        return objects.map { $0! }
    }

    /// An object standing for a result whose row is gone and that the context no longer
    /// holds: a deleted fault with no context (reading an attribute traps, naming it).
    func detachedObject(for id: ManagedObjectID) -> Result {
        let object = Result(entity: id.entity, insertInto: nil)
        object.objectID = id
        object.values = []
        object.isFaultState = true
        object.isDeletedState = true
        return object
    }

    /// Renames the results whose temporary IDs became permanent (a save, or
    /// `obtainPermanentIDs(for:)`), so that they are found by their IDs.
    func normalizeTemporaryIDs() {
        guard !temporaries.isEmpty else { return }
        var renamed: [ManagedObjectID: Result] = [:]
        for (id, object) in temporaries where object.objectID != id {
            arrangement?.replaceID(id, with: object.objectID)
            renamed[id] = object
        }
        guard !renamed.isEmpty else { return }
        for id in renamed.keys { temporaries[id] = nil }
        for object in renamed.values where object.objectID.isTemporaryID { temporaries[object.objectID] = object }
    }
}
