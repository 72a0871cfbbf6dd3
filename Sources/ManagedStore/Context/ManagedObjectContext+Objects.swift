extension ManagedObjectContext {
    // MARK: Registered objects

    /// True when the context has unsaved insertions, updates or deletions.
    public var hasChanges: Bool {
        checkQueue()
        return !inserted.isEmpty || !deleted.isEmpty || !updated.isEmpty
    }

    /// Objects inserted and not yet saved.
    public var insertedObjects: Set<ManagedObject> { checkQueue(); return Set(inserted.objects) }
    /// Objects changed since the last save (including those set back to their saved values,
    /// as in Core Data).
    public var updatedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(updated.values.filter { !$0.isDeletedState })
    }
    /// Objects deleted and not yet saved.
    public var deletedObjects: Set<ManagedObject> { checkQueue(); return Set(deleted.values) }
    /// Every object the context holds now.
    public var registeredObjects: Set<ManagedObject> {
        checkQueue()
        return Set(registry.allObjects).union(inserted.objects)
    }

    /// The entity whose objects are instances of `type`, for `init(context:)`.
    func entityForInsertion(of type: ManagedObject.Type) -> EntityDescription {
        checkQueue()
        if let last = lastInsertedEntity, last.type == ObjectIdentifier(type) { return last.entity }
        guard let entity = model.entity(for: type) else {
            preconditionFailure("ManagedStore: the model of context \(self) has no entity for class \(type)")
        }
        lastInsertedEntity = (ObjectIdentifier(type), entity)
        return entity
    }

    /// Inserts an object made without a context (or deleted in this one and not yet saved).
    public func insert(_ object: ManagedObject) {
        insert(object, awakening: true)
    }

    /// Inserts `object`; `awakening`: runs its `awakeFromInsert()`, which Core Data runs "when
    /// the receiver is first inserted into a managed object context" (not when an undo or redo
    /// brings an insertion back).
    func insert(_ object: ManagedObject, awakening: Bool) {
        checkQueue()
        if owns(object) {
            if object.isDeletedState {
                object.isDeletedState = false
                deleted[ObjectIdentifier(object)] = nil
                pendingDeleted[ObjectIdentifier(object)] = nil
                if undoManagerStorage != nil { eventUndeleted.append(object) }
            }
            return
        }
        precondition(
            object.link.map { $0.isGone.load(ordering: .acquiring) } ?? true,
            "ManagedStore: \(object.objectID) belongs to another context")
        // Core Data raises "Cannot create an instance of an abstract entity".
        precondition(
            !object.entity.isAbstract,
            "ManagedStore: entity \(object.entity.name) is abstract: insert an object of one of its sub-entities (\(object.entity.subentities.map(\.name).joined(separator: ", ")))"
        )
        precondition(
            object.objectID.isTemporaryID,
            "ManagedStore: \(object.objectID) is already saved; use object(with:) to bring it into a context")
        object.managedObjectContext = self
        inserted.add(object)
        if awakening { object.awakeFromInsert() }
    }

    /// Marks an object for deletion at the next save (an inserted one is simply dropped).
    public func delete(_ object: ManagedObject) {
        checkQueue()
        precondition(
            object.managedObjectContext === self, "ManagedStore: \(object.objectID) does not belong to context \(self)")
        let key = ObjectIdentifier(object)
        if object.isDeletedState { return }
        object.prepareForDeletion()
        if object.isDeletedState { return }  // (it deleted itself)
        if !object.entity.resolvedRelationships.isEmpty {
            // Marked first, so that a cascade back to this object stops here.
            object.isDeletedState = true
            propagateDeletion(of: object)
            object.isDeletedState = false
        }
        if object.isInsertedState {
            inserted.remove(object)
            object.managedObjectContext = nil
            pendingUpdated[key] = nil
            // Listed as inserted before: listed as deleted now (objectsDidChange), as in Core Data.
            if object.insertionAnnounced { pendingDeleted[key] = object }
            return
        }
        if object.isFaultState { fulfillFault(object) }
        object.isDeletedState = true
        deleted[key] = object
        updated[key] = nil
        pendingDeleted[key] = object
    }

    /// The object for `objectID`: the registered one, or else a fault (no I/O happens; the
    /// fault loads its values when first read, and traps then if its row is gone).
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        checkQueue()
        if let object = lookUp(objectID) { return object }
        // An ID of an entity with sub-entities (a to-one's key) may be of a sub-entity's row:
        // the row's Z_ENT tells which, so that the object is of its own class.
        let objectID = objectID.entity.subtree == nil || objectID.isTemporaryID ? objectID : concreteID(objectID)
        let object = objectID.entity.managedObjectClass.init(entity: objectID.entity, insertInto: nil)
        object.objectID = objectID
        object.values = []
        object.isFaultState = true
        object.managedObjectContext = self
        register(object)
        return object
    }

    /// The object for `objectID` with its values loaded; throws
    /// ``ManagedStoreError/objectNotFound(_:)`` when it has no row (or no object in a parent).
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkQueue()
        if let object = lookUp(objectID), !object.isFaultState { return object }
        guard let snapshot = try snapshot(for: objectID) else { throw ManagedStoreError.objectNotFound(objectID) }
        let object = self.object(with: snapshot.id)
        if object.isFaultState { fill(object, with: snapshot) }
        return object
    }

    /// `id` with the entity its row names (one of `id.entity`'s sub-entities, or itself); `id`
    /// when the store has no such row.
    private func concreteID(_ id: ManagedObjectID) -> ManagedObjectID {
        // A parent may hold the object unsaved (a permanent ID obtained before its save).
        if let parent, let held = parent.performAndWait({ parent.lookUp(parent.resolvedFromChild(id))?.objectID }) {
            return held
        }
        guard let store = try? store(for: id), let entity = try? store.entity(ofRow: id, in: queryGeneration),
            entity !== id.entity
        else { return id }
        return ManagedObjectID(entity: entity, store: store.persistentStore, primaryKey: id.key)
    }

    /// The object registered for `objectID`, if the context holds one; never does I/O.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        checkQueue()
        return lookUp(objectID)
    }

    /// The object this context holds for `id`: registered, or inserted and not yet saved.
    func lookUp(_ id: ManagedObjectID) -> ManagedObject? {
        if let object = registry[id] { return object }
        if let object = inserted.object(for: id) { return object }
        // A temporary ID a child still uses for an object saved here since.
        if id.isTemporaryID, let permanent = retiredTemporaryIDs[id] { return registry[permanent] }
        return nil
    }

    /// Gives permanent IDs to inserted objects before they are saved (reserving their rows'
    /// keys in the store), so that their IDs can be passed around and stay valid.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue()
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
        for object in objects where object.objectID.isTemporaryID {
            byEntity[ObjectIdentifier(object.entity), default: []].append(object)
        }
        var permanent: [ManagedObjectID: ManagedObjectID] = [:]
        for group in byEntity.values {
            let ids = try coordinator.store(for: group[0].entity).obtainPermanentIDs(group.count, for: group[0].entity)
            for (object, id) in zip(group, ids) {
                permanent[object.objectID] = id
                reassign(object, to: id)
            }
        }
        rewriteReferences(permanent)
    }

    /// Says which store an inserted object is saved to (Core Data's `assign(_:to:)`). In
    /// ManagedStore each entity lives in one store of the coordinator, so the only store an
    /// object can be assigned to is its entity's: assigning it there is allowed (and changes
    /// nothing); assigning it to a store that does not hold its entity, or that is not the
    /// coordinator's, throws, where Core Data raises.
    public func assign(_ object: ManagedObject, to store: PersistentStore) throws {
        checkQueue()
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        guard coordinator.persistentStores.contains(where: { $0 === store }) else {
            throw ManagedStoreError.storeNotFound(url: store.url)
        }
        let holder = try coordinator.store(for: object.objectID).persistentStore
        guard holder === store else {
            throw ManagedStoreError.wrongStore(
                reason:
                    "\(object.entity.name) objects are saved to \(holder); \(store) does not hold the entity (each entity lives in one store of a coordinator)"
            )
        }
    }

    func register(_ object: ManagedObject) {
        registry.add(object)
    }

    func unregister(_ object: ManagedObject) {
        registry.remove(object)
    }

    /// Moves an object to a new ID (a temporary one becoming permanent).
    func reassign(_ object: ManagedObject, to id: ManagedObjectID) {
        let oldID = object.objectID
        guard oldID != id else { return }
        retire(oldID, for: id)
        object.objectID = id
        if object.isInsertedState {
            inserted.invalidateIndex()
        } else {
            registry.move(object, from: oldID)
        }
    }

    /// Called by an object whose value changed.
    func noteUpdated(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        if updated[key] == nil { updated[key] = object }
        pendingUpdated[key] = object
    }

    /// Drops an object from the context: it leaves every set and the registry.
    func evict(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        inserted.remove(object)
        updated[key] = nil
        deleted[key] = nil
        pendingUpdated[key] = nil
        pendingDeleted[key] = nil
        unregister(object)
        object.managedObjectContext = nil
    }
}
