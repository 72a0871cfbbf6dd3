extension ManagedObject {
    /// Whether the relationship named `name` is a fault: reading it would load objects (Core
    /// Data's `hasFault(forRelationshipNamed:)`; "calling this method does not result in the
    /// fault firing"). Call on the object's context's queue.
    ///
    /// - A to-one is a fault when this object is, or when its destination is not loaded in
    ///   the context (a nil to-one is not a fault).
    /// - A to-many is a fault until it is accessed ("Faulting and Uniquing": firing the fault
    ///   loads it): it is not once read, or prefetched
    ///   (``FetchRequest/relationshipKeyPathsForPrefetching``), or when this object is unsaved
    ///   in a context on a coordinator. Read once, its members are kept, and not fetched again,
    ///   until the object is refreshed (``ManagedObjectContext/refresh(_:mergeChanges:)``) or
    ///   the context saves, merges another's save, or resets; the context's own unsaved
    ///   changes show in every read.
    ///
    /// Traps, naming it, on a relationship the entity does not have.
    public func hasFault(forRelationshipNamed name: String) -> Bool {
        checkAccess()
        let relationship = resolvedRelationship(name)
        // A to-many read already is loaded, even of an object whose attributes are a fault.
        if relationship.isToMany, let context = managedObjectContext, !context.isFaultingMembers(of: self, relationship)
        {
            return false
        }
        if isFaultState { return true }
        guard let context = managedObjectContext else { return false }
        if relationship.isToMany { return context.isFaultingMembers(of: self, relationship) }
        guard let slot = relationship.slot, case .object(let id) = values[slot] else { return false }
        return context.lookUp(id)?.isFaultState ?? true
    }

    /// The object IDs of the objects in the relationship named `name` (Core Data's
    /// `objectIDs(forRelationshipNamed:)`), with the context's unsaved changes, without making
    /// objects of a to-many's members: for counting or passing along a large to-many cheaply.
    /// A to-one gives its destination's ID, or none. Call on the object's context's queue.
    ///
    /// Traps, naming it, on a relationship the entity does not have, or if the store cannot be
    /// read (as reading the relationship would).
    public func objectIDs(forRelationshipNamed name: String) -> [ManagedObjectID] {
        checkAccess()
        let relationship = resolvedRelationship(name)
        guard relationship.isToMany else {
            guard let slot = relationship.slot, case .object(let id) = readAttribute(slot) else { return [] }
            return [id]
        }
        guard let context = managedObjectContext else {
            preconditionFailure("ManagedStore: relationship '\(name)' of \(objectID) was read outside a context")
        }
        do {
            return try context.memberIDs(of: self, relationship)
        } catch {
            preconditionFailure("ManagedStore: could not read relationship '\(name)' of \(objectID): \(error)")
        }
    }

    private func resolvedRelationship(_ name: String) -> ResolvedRelationship {
        guard let relationship = entity.resolvedRelationship(named: name) else {
            preconditionFailure("ManagedStore: entity \(entity.name) has no relationship '\(name)'")
        }
        return relationship
    }
}
