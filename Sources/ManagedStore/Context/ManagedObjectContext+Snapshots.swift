import Dispatch
import Foundation

extension ManagedObjectContext {
    // MARK: Faults and snapshots

    /// Loads a fault's values from the store or the parent context; traps if its row is gone
    /// (as Core Data raises), since a property getter cannot throw.
    func fulfillFault(_ object: ManagedObject) {
        if object.hasCachedRow, object.cachedRowStamp != .max,
            object.cachedRowStamp
                == (try? store(for: object.objectID).writeCount.load(ordering: .sequentiallyConsistent))
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
        return try coordinator.store(for: id).row(for: id, in: queryGeneration)
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
