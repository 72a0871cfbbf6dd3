import Foundation

extension ManagedObjectContext {
    /// What `request` describes, as its ``FetchRequest/resultType`` says (Core Data's
    /// `fetch(_:)`): the objects, their IDs, a dictionary of each one's values, or their count.
    /// Runs as one SQL query on a read connection (it never waits for a write), or through the
    /// parent for a child context. With ``FetchRequest/includesPendingChanges`` (the default),
    /// the context's own unsaved insertions, updates and deletions (and a parent's, for a child)
    /// count too, except for dictionaries, which are read from the store, as Core Data's are.
    ///
    /// Objects the context already holds are returned as they are here, unsaved changes and
    /// all; they take the store's newer values only by a merge or a refresh. Others come as
    /// faults whose values the fetch read (see ``FetchRequest/returnsObjectsAsFaults``).
    ///
    /// ```swift
    /// let ids = try context.fetch(FetchRequest<ManagedObjectID>(entity: Note.self, predicate: #Predicate { $0.stars > 3 }))
    /// let count = try context.fetch(FetchRequest<NSNumber>(entityName: "Note"))[0].intValue
    /// ```
    ///
    /// Throws ``ManagedStoreError/unsupportedFetch(entity:reason:)`` when ``FetchRequest/resultType``
    /// is not what `T` holds (a `FetchRequest<Note>` whose result type is the dictionary type).
    public func fetch<T: FetchRequestResult>(_ request: FetchRequest<T>) throws -> [T] {
        checkQueue()
        let entity = try entity(for: request)
        guard request.resultType == FetchRequest<T>.impliedResultType else {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name,
                reason:
                    "the request's resultType is .\(request.resultType), but it is a FetchRequest<\(T.self)>, whose results are \(FetchRequest<T>.impliedResultType.resultDescription): make it a FetchRequest<\(request.resultType == .managedObjectResultType ? "\(entity.managedObjectClass)" : request.resultType.resultTypeName)>"
            )
        }
        switch request.resultType {
        case .managedObjectResultType:
            if request.propertiesToFetch != nil { _ = try fetchedSlots(request, entity: entity) }
            guard request.includesPropertyValues else {
                return try fetchKeyedRows(request, entity: entity).map { object(with: $0.id) as! T }
            }
            return try fetchObjects(request, entity: entity).map { $0 as! T }
        case .managedObjectIDResultType:
            return try fetchKeyedRows(request, entity: entity).map { $0.id as! T }
        case .dictionaryResultType:
            return try fetchDictionaries(request, entity: entity).map { $0 as! T }
        case .countResultType:
            return [NSNumber(value: try count(for: request, entity: entity)) as! T]
        }
    }

    /// How many objects `request` would fetch (its limit and offset count), whatever its result
    /// type, as Core Data's `count(for:)`.
    public func count<T: FetchRequestResult>(for request: FetchRequest<T>) throws -> Int {
        checkQueue()
        return try count(for: request, entity: try entity(for: request))
    }

    func count<T: FetchRequestResult>(for request: FetchRequest<T>, entity: EntityDescription) throws -> Int {
        if request.includesPendingChanges && hasPendingChanges(for: entity) {
            return try fetchObjects(request, entity: entity).count
        }
        if let parent {
            return try parent.performAndWait { () throws -> Int in try parent.count(for: request) }
        }
        let plan = try FetchPlan(request, entity: entity)
        return try store(for: entity).count(plan.query, in: queryGeneration)
    }

    /// The values of `properties` (attribute names) of each object `request` describes, one row
    /// per object in the request's order, without making managed objects: Core Data's
    /// dictionary result type with `propertiesToFetch`, for reading many rows cheaply.
    ///
    /// ```swift
    /// for row in try context.fetchValues(FetchRequest<Note>(sortBy: [SortDescriptor(\.created)]),
    ///                                    properties: ["title", "created"]) {
    ///     print(row[0], row[1])
    /// }
    /// ```
    ///
    /// As in Core Data, it reads what is saved in the store: this context's (and its parents')
    /// unsaved changes do not count.
    public func fetchValues<T: ManagedObject>(
        _ request: FetchRequest<T>, properties: [String]
    ) throws -> [[AttributeValue]] {
        checkQueue()
        let entity = try entity(for: request)
        let slots = try properties.map { name in
            guard let slot = entity.storedSlotByName[name] else {
                throw ManagedStoreError.unsupportedFetch(entity: entity.name, reason: "no attribute '\(name)' to fetch")
            }
            return slot
        }
        let plan = try FetchPlan(request, entity: entity)
        return try store(for: entity).fetchValues(plan.query, slots: slots, in: queryGeneration)
    }

    /// The values of the attributes `keyPaths` name, typed, one tuple per object `request`
    /// describes, in the request's order, without making managed objects: Core Data's
    /// `propertiesToFetch` with the dictionary result type, by key path instead of by name. A
    /// to-one relationship is read as its destination's ID: `\Book.author?.objectID`.
    ///
    /// ```swift
    /// for (title, created) in try context.fetchValues(FetchRequest<Note>(), \.title, \.created) {
    ///     print(title, created)      // a String and a Date
    /// }
    /// ```
    ///
    /// A key path that is not an attribute is refused with
    /// ``ManagedStoreError/unsupportedFetch(entity:reason:)``, and so is a nil value for a
    /// non-optional type. As in Core Data, it reads what is saved in the store: this context's
    /// unsaved changes do not count.
    @inlinable
    public func fetchValues<T: ManagedObject, each V: AttributeRepresentable>(
        _ request: FetchRequest<T>, _ keyPaths: repeat KeyPath<T, each V>
    ) throws -> [(repeat each V)] {
        var paths: [AnyKeyPath] = []
        for keyPath in repeat each keyPaths { paths.append(keyPath) }
        let rows = try fetchAttributeRows(request, keyPaths: paths)
        var result: [(repeat each V)] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            var column = 0
            result.append((repeat try Self.typedValue(row, &column, as: (each V).self, request: request)))
        }
        return result
    }

    /// ``fetchValues(_:_:)`` for three attributes, the common case (an importer's per-chunk
    /// read), without parameter packs: it is specialized whole in the caller's module, where the
    /// packed form instantiates tuple metadata at run time.
    @inlinable
    public func fetchValues<
        T: ManagedObject, A: AttributeRepresentable, B: AttributeRepresentable, C: AttributeRepresentable
    >(
        _ request: FetchRequest<T>, _ a: KeyPath<T, A>, _ b: KeyPath<T, B>, _ c: KeyPath<T, C>
    ) throws -> [(A, B, C)] {
        let rows = try fetchAttributeRows(request, keyPaths: [a, b, c])
        var result: [(A, B, C)] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            var column = 0
            let first = try Self.typedValue(row, &column, as: A.self, request: request)
            let second = try Self.typedValue(row, &column, as: B.self, request: request)
            let third = try Self.typedValue(row, &column, as: C.self, request: request)
            result.append((first, second, third))
        }
        return result
    }

    /// The next value of `row`, as `V`.
    @inlinable
    static func typedValue<T: ManagedObject, V: AttributeRepresentable>(
        _ row: [AttributeValue], _ column: inout Int, as type: V.Type, request: FetchRequest<T>
    ) throws -> V {
        defer { column += 1 }
        guard let value = V(attributeValue: row[column]) else {
            throw unreadable(row[column], as: "\(V.self)", entity: "\(T.self)")
        }
        return value
    }

    @usableFromInline
    static func unreadable(_ value: AttributeValue, as type: String, entity: String) -> ManagedStoreError {
        .unsupportedFetch(entity: entity, reason: "a fetched value \(value) is not a \(type)")
    }

    /// The rows of the attribute columns `keyPaths` resolve to, for ``fetchValues(_:_:)``.
    @usableFromInline
    func fetchAttributeRows<T: ManagedObject>(
        _ request: FetchRequest<T>, keyPaths: [AnyKeyPath]
    ) throws -> [[AttributeValue]] {
        checkQueue()
        let entity = try entity(for: request)
        let slots = try keyPaths.map { keyPath in
            guard let slot = entity.slot(forKeyPath: keyPath) else {
                throw ManagedStoreError.unsupportedFetch(
                    entity: entity.name, reason: "the key path \(keyPath) is not an attribute to fetch")
            }
            return slot
        }
        let plan = try FetchPlan(request, entity: entity)
        return try store(for: entity).fetchValues(plan.query, slots: slots, in: queryGeneration)
    }

    /// The entity `request` fetches: the one it names, or its result type's, or the one its
    /// predicate is typed by; checked against the classes its result type and predicate name.
    func entity<T: FetchRequestResult>(for request: FetchRequest<T>) throws -> EntityDescription {
        let entity: EntityDescription
        if let name = request.entityName {
            guard let named = model.entitiesByName[name] else { throw ManagedStoreError.unknownEntity(name) }
            entity = named
        } else if let type = request.entityClass ?? (T.self as? ManagedObject.Type) {
            entity = try self.entity(for: type)
        } else {
            throw ManagedStoreError.unsupportedFetch(
                entity: "\(T.self)",
                reason:
                    "a FetchRequest<\(T.self)> names no entity: make it with FetchRequest(entityName:) or FetchRequest(entity:predicate:sortBy:)"
            )
        }
        if request.entityName != nil || request.entityClass != T.self, T.self is ManagedObject.Type,
            !(entity.managedObjectClass is T.Type)
        {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name,
                reason:
                    "its objects are \(entity.managedObjectClass), which a FetchRequest<\(T.self)> cannot return: make it a FetchRequest<\(entity.managedObjectClass)>"
            )
        }
        if let filter = request.filter, !filter.accepts(entity.managedObjectClass) {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name,
                reason:
                    "the predicate is typed by \(filter.subject), but the entity's objects are \(entity.managedObjectClass): type it by \(entity.managedObjectClass) (#Predicate<\(entity.managedObjectClass)>)"
            )
        }
        if let ordering = request.ordering, !ordering.accepts(entity.managedObjectClass) {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name,
                reason:
                    "the sort descriptors are typed by \(ordering.subject), but the entity's objects are \(entity.managedObjectClass): type them by \(entity.managedObjectClass)"
            )
        }
        return entity
    }

    func entity(for type: ManagedObject.Type) throws -> EntityDescription {
        guard let entity = model.entity(for: type) else {
            throw ManagedStoreError.unknownEntity(String(describing: type))
        }
        return entity
    }

    /// The store that holds `entity`'s objects (see ``PersistentStoreCoordinator``).
    func store(for entity: EntityDescription) throws -> SQLiteStore {
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        return try coordinator.store(for: entity)
    }

    /// The store of the object `id` names.
    func store(for id: ManagedObjectID) throws -> SQLiteStore {
        guard let coordinator = persistentStoreCoordinator else { throw ManagedStoreError.noPersistentStore }
        return try coordinator.store(for: id)
    }

    /// A request compiled to SQL, with its sort order for the in-memory pass.
    struct FetchPlan {
        var query: StoreQuery
        var sortKeys: [SortKey]

        init<T>(_ request: FetchRequest<T>, entity: EntityDescription) throws {
            let compiler = PredicateSQLCompiler(entity: entity)
            query = StoreQuery(entity: entity)
            query.includesSubentities = request.includesSubentities
            if let (clause, arguments) = try request.whereClause(compiler) {
                query.whereClause = clause
                query.arguments = arguments
            }
            let (orderBy, slots) = try request.orderBy(compiler)
            query.orderBy = orderBy
            query.limit = request.fetchLimit
            query.offset = request.fetchOffset
            sortKeys = slots
        }
    }

    func fetchObjects<T: FetchRequestResult>(
        _ request: FetchRequest<T>, entity: EntityDescription
    ) throws
        -> [ManagedObject]
    {
        let plan = try FetchPlan(request, entity: entity)
        let pending = request.includesPendingChanges && hasPendingChanges(for: entity)
        let rows: [RowSnapshot]
        // Noted before the rows are read (see `SQLiteStore.writeCount`).
        let stamp =
            parent == nil ? try store(for: entity).writeCount.load(ordering: .sequentiallyConsistent) : UInt64.max
        if let parent {
            var parentRequest = request
            if pending {
                parentRequest.fetchLimit = 0
                parentRequest.fetchOffset = 0
            }
            rows = fromParent(
                try parent.performAndWait { () throws -> RowsForChild in
                    parent.forChild(
                        try parent.fetchObjects(parentRequest, entity: entity).map {
                            RowSnapshot(id: $0.objectID, version: $0.version, values: $0.values)
                        })
                })
        } else {
            var query = plan.query
            if pending {
                query.limit = 0
                query.offset = 0
            }
            rows = try store(for: entity).fetch(query, in: queryGeneration)
        }
        let refresh = request.shouldRefreshRefetchedObjects
        // Prefetching fills the objects' relationships, so the objects come loaded.
        let asFaults =
            request.returnsObjectsAsFaults && request.resultType == .managedObjectResultType
            && request.relationshipKeyPathsForPrefetching.isEmpty
        let now = asFaults ? DispatchTime.now().uptimeNanoseconds : 0
        let fetched = rows.map { materialize($0, refreshing: refresh, asFault: asFaults, at: now, stamp: stamp) }
        if !request.relationshipKeyPathsForPrefetching.isEmpty && parent == nil {
            try prefetch(request.relationshipKeyPathsForPrefetching, for: fetched, entity: entity)
        }
        guard pending else { return fetched }
        return try applyPendingChanges(to: fetched, request: request, entity: entity, plan: plan)
    }

    /// Folds the context's unsaved changes into objects fetched by their stored values.
    private func applyPendingChanges<T: FetchRequestResult>(
        to fetched: [ManagedObject], request: FetchRequest<T>,
        entity: EntityDescription, plan: FetchPlan
    ) throws -> [ManagedObject] {
        func matches(_ object: ManagedObject) throws -> Bool {
            try request.matches(object)
        }
        var seen = Set<ObjectIdentifier>()
        var result: [ManagedObject] = []
        for object in fetched where !object.isDeletedState {
            if object.hasValueChanges, try !matches(object) { continue }
            if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
        }
        let subentities = request.includesSubentities
        let changed = updated.values.filter {
            $0.entity.matches(entity, includingSubentities: subentities) && $0.hasValueChanges && !$0.isDeletedState
        }
        .sorted { $0.objectID.key < $1.objectID.key }
        for object in changed where !seen.contains(ObjectIdentifier(object)) {
            if try matches(object) {
                seen.insert(ObjectIdentifier(object))
                result.append(object)
            }
        }
        let added = inserted.objects.filter { $0.entity.matches(entity, includingSubentities: subentities) }
        for object in added where try matches(object) {
            result.append(object)
        }
        return plan.ordered(result, offset: request.fetchOffset, limit: request.fetchLimit) { object, index in
            plan.sortKeys[index].value(of: object)
        }
    }

    /// The registered object for a fetched row (its state here kept, unless `refreshing`), or a
    /// new one; with `asFault`, a fault is left one (or made), its values those of `row` (the
    /// row cache of Core Data's `returnsObjectsAsFaults`).
    func materialize(
        _ row: RowSnapshot, refreshing: Bool = false, asFault: Bool = false, at time: UInt64 = 0, stamp: UInt64 = 0
    ) -> ManagedObject {
        if let object = lookUp(row.id) {
            if object.isFaultState {
                if asFault {
                    cacheRow(row, in: object, at: time, stamp: stamp)
                } else {
                    fill(object, with: row)
                }
            } else if refreshing && !object.isInsertedState && !object.isDeletedState {
                refresh(object, to: row)
            }
            return object
        }
        let object = makeObject(for: row)
        register(object)
        if asFault {
            object.isFaultState = true
            object.hasCachedRow = true
            object.cachedRowTime = time
            object.cachedRowStamp = stamp
        } else {
            object.awakeFromFetch()
        }
        return object
    }

    /// Keeps `row` in the fault `object`, which firing will then take without I/O.
    func cacheRow(_ row: RowSnapshot, in object: ManagedObject, at time: UInt64, stamp: UInt64) {
        object.values = row.values
        object.committedValues = row.values
        object.version = row.version
        object.hasCachedRow = true
        object.cachedRowTime = time
        object.cachedRowStamp = stamp
    }

    /// A new object of this context for a row it does not hold yet (not registered).
    func makeObject(for row: RowSnapshot) -> ManagedObject {
        let object = row.id.entity.managedObjectClass.init(entity: row.id.entity, insertInto: nil)
        object.objectID = row.id
        object.values = row.values
        object.committedValues = row.values
        object.version = row.version
        object.managedObjectContext = self
        return object
    }

    func hasPendingChanges(for entity: EntityDescription) -> Bool {
        inserted.objects.contains { $0.entity.isKindOf(entity: entity) }
            || deleted.values.contains { $0.entity.isKindOf(entity: entity) }
            || updated.values.contains { $0.entity.isKindOf(entity: entity) && $0.hasValueChanges }
    }
}
