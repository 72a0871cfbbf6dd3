/// The objects a context has saved, fetched or faulted, by ID: one instance per ID (confined to
/// the context's queue).
///
/// It holds its objects strongly, and lets go of those that nothing else holds and that have no
/// unsaved changes (`isKnownUniquelyReferenced`), so a context keeps only the objects in use, as
/// Core Data's does, without a weak reference or an entry object per object.
///
/// Objects a save just wrote wait in a list, unindexed: an import that inserts, saves and drops
/// its objects never pays for indexing them. A lookup that misses indexes them first.
struct ObjectRegistry {
    private var objects: [ManagedObjectID: ManagedObject] = [:]
    private var unindexed: [ManagedObject] = []
    private var sweepThreshold = ObjectRegistry.minimumThreshold
    /// When true, nothing is ever let go (``ManagedObjectContext/retainsRegisteredObjects``).
    var retainsAll = false

    private static let minimumThreshold = 4096

    subscript(id: ManagedObjectID) -> ManagedObject? {
        mutating get {
            if let object = objects[id] { return object }
            guard !unindexed.isEmpty else { return nil }
            indexPending()
            return objects[id]
        }
    }

    var isEmpty: Bool { objects.isEmpty && unindexed.isEmpty }

    /// Every registered object.
    var allObjects: [ManagedObject] { Array(objects.values) + unindexed }

    mutating func add(_ object: ManagedObject) {
        objects[object.objectID] = object
    }

    /// Registers an object a save just wrote, without indexing it yet.
    mutating func addSaved(_ object: ManagedObject) {
        unindexed.append(object)
    }

    /// Removes `object`, if it is the one registered under its ID.
    mutating func remove(_ object: ManagedObject) {
        indexPending()
        if objects[object.objectID] === object { objects[object.objectID] = nil }
    }

    /// Re-registers `object`, whose ID was `oldID`, under its current ID.
    mutating func move(_ object: ManagedObject, from oldID: ManagedObjectID) {
        indexPending()
        if objects[oldID] === object { objects[oldID] = nil }
        add(object)
    }

    mutating func removeAll() {
        // Keeping the capacity: an importer resets its context after every chunk.
        objects.removeAll(keepingCapacity: true)
        unindexed.removeAll(keepingCapacity: true)
        sweepThreshold = Self.minimumThreshold
    }

    private mutating func indexPending() {
        for object in unindexed { objects[object.objectID] = object }
        unindexed.removeAll(keepingCapacity: true)
    }

    /// Lets go of saved objects nobody holds; sweeps the index when it has grown enough since
    /// the last sweep. Called where the context's own code holds no objects (after a save, at
    /// the end of a block), so that only the caller's references keep objects.
    mutating func sweepIfGrown() {
        guard !retainsAll else { return }
        if !unindexed.isEmpty {
            var kept: [ManagedObject] = []
            for index in unindexed.indices {
                if isKnownUniquelyReferenced(&unindexed[index]), !unindexed[index].hasValueChanges,
                    !unindexed[index].isDeletedState
                {
                    // Only this array holds it: it goes with the array (no need to clear its
                    // context first; a merge lets go of every row an import stores this way).
                } else {
                    kept.append(unindexed[index])
                }
            }
            unindexed = kept
        }
        if objects.count > sweepThreshold { sweep() }
    }

    /// Lets go of the indexed objects that only the registry holds and have no unsaved changes.
    private mutating func sweep() {
        var unused: [ManagedObjectID] = []
        var index = objects.startIndex
        while index != objects.endIndex {
            if isKnownUniquelyReferenced(&objects.values[index]) {
                let object = objects.values[index]
                if !object.isDeletedState && !object.hasValueChanges { unused.append(object.objectID) }
            }
            index = objects.index(after: index)
        }
        for id in unused {
            objects.removeValue(forKey: id)?.managedObjectContext = nil
        }
        sweepThreshold = max(Self.minimumThreshold, objects.count * 2)
    }
}
