import Foundation

extension ManagedObjectContext {
    /// The dictionaries of a request whose result type is
    /// ``FetchRequestResultType/dictionaryResultType``: one per row the request selects in the
    /// store (unsaved changes do not count, as Core Data documents), keyed by the names of
    /// ``FetchRequest/propertiesToFetch`` (every attribute when nil), a nil value left out.
    /// With ``FetchRequest/returnsDistinctResults``, a dictionary equal to one before it is
    /// left out, before the offset and limit apply.
    func fetchDictionaries<T: FetchRequestResult>(
        _ request: FetchRequest<T>, entity: EntityDescription
    ) throws -> [NSDictionary] {
        let slots = try fetchedSlots(request, entity: entity)
        let names = slots.map { entity.storedProperties[$0].name }
        var plan = try FetchPlan(request, entity: entity)
        if request.returnsDistinctResults {
            plan.query.limit = 0
            plan.query.offset = 0
        }
        var rows = try store(for: entity).fetchValues(plan.query, slots: slots, in: queryGeneration)
        if request.returnsDistinctResults {
            var seen = Set<[AttributeValue]>(minimumCapacity: rows.count)
            rows = rows.filter { seen.insert($0).inserted }
            rows = Array(rows.dropFirst(request.fetchOffset))
            if request.fetchLimit > 0 { rows = Array(rows.prefix(request.fetchLimit)) }
        }
        return rows.map { row in
            var dictionary: [String: Any] = [:]
            dictionary.reserveCapacity(names.count)
            for (name, value) in zip(names, row) {
                if let object = Self.dictionaryValue(value) { dictionary[name] = object }
            }
            return NSDictionary(dictionary: dictionary)
        }
    }

    /// The slots of the properties a dictionary fetch returns; also checks the names a request
    /// for objects gives (which loads whole rows whatever they say).
    func fetchedSlots<T: FetchRequestResult>(_ request: FetchRequest<T>, entity: EntityDescription) throws -> [Int] {
        guard let names = request.propertiesToFetch else { return entity.attributeSlots }
        return try names.map { name in
            guard let slot = entity.storedSlotByName[name] else {
                let reason =
                    entity.relationshipsByName[name] != nil
                    ? "'\(name)' is a to-many relationship: propertiesToFetch takes attributes and to-one relationships"
                    : "propertiesToFetch names '\(name)', which is not an attribute or to-one relationship of \(entity.name)"
                throw ManagedStoreError.unsupportedFetch(entity: entity.name, reason: reason)
            }
            return slot
        }
    }

    /// A stored value as Core Data puts it in a dictionary result: Foundation's types
    /// (`NSNumber` for integers, Booleans and doubles, `NSDecimalNumber` for decimals), an
    /// object's ID for a to-one relationship; nil for no value.
    static func dictionaryValue(_ value: AttributeValue) -> Any? {
        switch value {
        case .null: return nil
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .double(let double): return NSNumber(value: double)
        case .decimal(let decimal): return NSDecimalNumber(decimal: decimal)
        case .boolean(let bool): return NSNumber(value: bool)
        case .date(let date): return date
        case .binaryData(let data): return data
        case .uuid(let uuid): return uuid
        case .object(let id): return id
        case .objects(let ids): return ids
        case .day: return value
        }
    }
}
