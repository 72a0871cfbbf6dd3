import Foundation

extension ManagedObjectContext {
    /// The ID and the sort keys (the values of the request's sort descriptors' attributes) of
    /// each object `request` describes, in the order ``fetch(_:)`` returns them, without making
    /// objects for the rows this context does not hold: what a ``FetchedResultsController``
    /// with a ``FetchRequest/fetchBatchSize`` keeps of each result.
    ///
    /// The context's unsaved changes count as ``fetch(_:)`` counts them (see
    /// `applyPendingChanges`): a held object's current values stand for its row's; the store is
    /// read in the context's query generation, if it is pinned to one. A child context's
    /// results come through its parent as objects, whose keys are taken.
    func fetchKeyedRows<T: FetchRequestResult>(_ request: FetchRequest<T>) throws -> [SQLiteStore.KeyedRow] {
        checkQueue()
        return try fetchKeyedRows(request, entity: try entity(for: request))
    }

    func fetchKeyedRows<T: FetchRequestResult>(
        _ request: FetchRequest<T>, entity: EntityDescription
    ) throws -> [SQLiteStore.KeyedRow] {
        let plan = try FetchPlan(request, entity: entity)
        func keyedRow(_ object: ManagedObject) -> SQLiteStore.KeyedRow {
            SQLiteStore.KeyedRow(id: object.objectID, keys: plan.sortKeys.map { $0.value(of: object) })
        }
        if parent != nil {
            return try fetchObjects(request, entity: entity).map(keyedRow)
        }
        let pending = request.includesPendingChanges && hasPendingChanges(for: entity)
        var query = plan.query
        if pending {
            query.limit = 0
            query.offset = 0
        }
        let rows = try store(for: entity).fetchKeyedRows(query, keys: plan.sortKeys, in: queryGeneration)
        guard pending else { return rows }

        func matches(_ object: ManagedObject) throws -> Bool {
            try request.matches(object)
        }
        var included = Set<ManagedObjectID>(minimumCapacity: rows.count)
        var result: [SQLiteStore.KeyedRow] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            if let object = lookUp(row.id), !object.isFaultState {
                if object.isDeletedState { continue }
                if object.hasValueChanges, try !matches(object) { continue }
                result.append(keyedRow(object))
            } else {
                result.append(row)
            }
            included.insert(row.id)
        }
        let subentities = request.includesSubentities
        let changed = updated.values.filter {
            $0.entity.matches(entity, includingSubentities: subentities) && $0.hasValueChanges && !$0.isDeletedState
        }
        .sorted { $0.objectID.key < $1.objectID.key }
        for object in changed where !included.contains(object.objectID) {
            if try matches(object) {
                included.insert(object.objectID)
                result.append(keyedRow(object))
            }
        }
        for object in inserted.objects where object.entity.matches(entity, includingSubentities: subentities) {
            if try matches(object) { result.append(keyedRow(object)) }
        }
        return plan.ordered(result, offset: request.fetchOffset, limit: request.fetchLimit) { row, index in
            row.keys[index]
        }
    }
}

extension ManagedObjectContext.FetchPlan {
    /// `results` in the order of the plan's sort descriptors, ties keeping the order they come
    /// in (a stable sort), then cut to `offset` and `limit`: how a fetch orders what it gathered
    /// in memory (the store's rows with the context's unsaved changes). `value(result, index)`
    /// is the result's value for the index-th sort descriptor.
    func ordered<Element>(
        _ results: [Element], offset: Int, limit: Int,
        value: (Element, Int) -> AttributeValue
    ) -> [Element] {
        var results = results
        if !sortKeys.isEmpty {
            // A key through a to-one reads the related object (perhaps the store): each
            // element's keys are then read once, not at every comparison.
            let known: [[AttributeValue]]? =
                sortKeys.contains { !$0.through.isEmpty }
                ? results.map { element in sortKeys.indices.map { value(element, $0) } } : nil
            func key(_ offset: Int, _ element: Element, _ index: Int) -> AttributeValue {
                known?[offset][index] ?? value(element, index)
            }
            results = results.enumerated().sorted { a, b in
                for (index, descriptor) in sortKeys.enumerated() {
                    let x = key(a.offset, a.element, index), y = key(b.offset, b.element, index)
                    if x == y { continue }
                    return descriptor.ascending ? AttributeValue.ascending(x, y) : AttributeValue.ascending(y, x)
                }
                return a.offset < b.offset
            }.map(\.element)
        }
        let start = min(offset, results.count)
        var slice = results[start...]
        if limit > 0 { slice = slice.prefix(limit) }
        return Array(slice)
    }
}
