import Foundation

/// Key-value access (Core Data's `value(forKey:)` and `setValue(_:forKey:)`), by the
/// properties' names.
extension ManagedObject {
    // MARK: Key-value access

    /// The value of the attribute or relationship `key`, as its Swift type (nil for a nil
    /// attribute; a ``ManagedObject`` or nil for a to-one; a `Set<ManagedObject>` for a to-many,
    /// an array of them in order for an ordered to-many).
    ///
    /// An unknown key is a programmer error and traps.
    public func value(forKey key: String) -> Any? {
        if let relationship = entity.resolvedRelationship(named: key) {
            let objects = relatedObjects(relationship)
            if relationship.description.isOrdered { return objects }
            return relationship.isToMany ? Set(objects) : objects.first
        }
        let slot = slotOrTrap(key)
        switch readAttribute(slot) {
        case .null: return nil
        case .string(let value):
            return entity.attribute(atSlot: slot)?.type == .uri ? URL(string: value) as Any? : value
        case .integer(let value):
            switch entity.attribute(atSlot: slot)?.type {
            case .integer16: return Int16(value)
            case .integer32: return Int32(value)
            default: return value
            }
        case .double(let value): return value
        case .decimal(let value): return value
        case .boolean(let value): return value
        case .date(let value): return value
        case .day(let days): return days
        case .binaryData(let value): return value
        case .uuid(let value): return value
        case .object(let id): return managedObjectContext?.object(with: id)
        case .objects(let ids): return Set(ids.compactMap { managedObjectContext?.object(with: $0) })
        }
    }

    /// Sets the attribute `key` to `value` (nil clears it).
    ///
    /// An unknown key, or a value of the wrong type, is a programmer error and traps.
    public func setValue(_ value: Any?, forKey key: String) {
        if let relationship = entity.resolvedRelationship(named: key) {
            let objects: [ManagedObject]
            switch value {
            case nil: objects = []
            case let object as ManagedObject: objects = [object]
            case let set as Set<ManagedObject>: objects = Array(set)
            case let array as [ManagedObject]: objects = array
            default:
                preconditionFailure(
                    "ManagedStore: \(type(of: value!)) cannot be stored in relationship '\(key)' of \(entity.name)")
            }
            if relationship.isToMany {
                setMembers(objects, relationship)
            } else {
                precondition(
                    objects.count <= 1, "ManagedStore: to-one relationship '\(key)' was given \(objects.count) objects")
                setDestination(objects.first, relationship)
            }
            return
        }
        let slot = slotOrTrap(key)
        let attribute = entity.attribute(atSlot: slot)!
        var stored = AttributeValue.null
        if let value {
            guard let representable = value as? any AttributeRepresentable else {
                preconditionFailure(
                    "ManagedStore: \(type(of: value)) cannot be stored in attribute '\(key)' of \(entity.name)")
            }
            stored = representable.attributeValue
        }
        precondition(
            stored.fits(attribute.type),
            "ManagedStore: \(stored) does not fit attribute '\(key)' (\(attribute.type)) of \(entity.name)")
        writeAttribute(stored, slot: slot)
    }

    fileprivate func slotOrTrap(_ key: String) -> Int {
        guard let slot = entity.slotByName[key] else {
            preconditionFailure("ManagedStore: entity \(entity.name) has no attribute '\(key)'")
        }
        return slot
    }
}
