extension ManagedObject {
    /// The objects `relationship` relates this one to: none or one for a to-one (a fault when
    /// not loaded yet), the members for a to-many (read from the store or parent, with the
    /// context's unsaved changes applied).
    func relatedObjects(_ relationship: RelationshipDescription) -> [ManagedObject] {
        checkAccess()
        guard let context = managedObjectContext else {
            preconditionFailure("ManagedStore: relationship '\(relationship.name)' of \(objectID) was read outside a context")
        }
        if relationship.isToMany {
            do {
                return try context.members(of: self, relationship)
            } catch {
                preconditionFailure("ManagedStore: could not read relationship '\(relationship.name)' of \(objectID): \(error)")
            }
        }
        guard let slot = entity.slotByName[relationship.name], case .object(let id) = readAttribute(slot) else { return [] }
        return [context.object(with: id)]
    }

    /// Sets `relationship` to `objects`, keeping the inverse in step on the other side.
    func setRelatedObjects(_ objects: [ManagedObject], _ relationship: RelationshipDescription) {
        checkAccess()
        guard let context = managedObjectContext else {
            preconditionFailure("ManagedStore: relationship '\(relationship.name)' of \(objectID) was set outside a context")
        }
        for object in objects {
            precondition(object.managedObjectContext === context,
                         "ManagedStore: \(object.objectID) belongs to another context than \(objectID) (relationship '\(relationship.name)')")
            precondition(object.entity.name == relationship.destinationEntityName,
                         "ManagedStore: \(object.objectID) is not a \(relationship.destinationEntityName) (relationship '\(relationship.name)')")
        }
        if relationship.isToMany {
            setMembers(objects, relationship, in: context)
        } else {
            precondition(objects.count <= 1, "ManagedStore: to-one relationship '\(relationship.name)' was given \(objects.count) objects")
            setDestination(objects.first, relationship, in: context)
        }
    }

    /// Points the to-one `relationship` at `destination`, and fixes the inverse: a to-one
    /// inverse is set on the new destination and cleared on the old one (and on the object the
    /// new destination pointed at before); a to-many inverse follows by itself.
    func setDestination(_ destination: ManagedObject?, _ relationship: RelationshipDescription, in context: ManagedObjectContext) {
        guard let slot = entity.slotByName[relationship.name] else { return }
        let old: ManagedObject? = if case .object(let id) = readAttribute(slot) { context.object(with: id) } else { nil }
        if old === destination { return }
        writeAttribute(destination.map { .object($0.objectID) } ?? .null, slot: slot)
        guard let inverseName = relationship.inverseName,
              let inverse = (destination ?? old)?.entity.relationshipsByName[inverseName], !inverse.isToMany,
              let inverseSlot = (destination ?? old)?.entity.slotByName[inverseName] else { return }
        if let old, case .object(let id) = old.readAttribute(inverseSlot), id == objectID {
            old.writeAttribute(.null, slot: inverseSlot)
        }
        if let destination {
            if case .object(let id) = destination.readAttribute(inverseSlot), id != objectID {
                // The destination's previous partner loses it.
                let partner = context.object(with: id)
                if case .object(let back) = partner.readAttribute(slot), back == destination.objectID {
                    partner.writeAttribute(.null, slot: slot)
                }
            }
            destination.writeAttribute(.object(objectID), slot: inverseSlot)
        }
    }

    /// Makes `objects` the members of the to-many `relationship`: objects that leave have
    /// their to-one inverse cleared, objects that join have it pointed here.
    private func setMembers(_ objects: [ManagedObject], _ relationship: RelationshipDescription, in context: ManagedObjectContext) {
        guard let inverseName = relationship.inverseName, let destination = context.model.entitiesByName[relationship.destinationEntityName],
              let inverse = destination.relationshipsByName[inverseName] else { return }
        let current = relatedObjects(relationship)
        let wanted = Set(objects.map(ObjectIdentifier.init))
        let present = Set(current.map(ObjectIdentifier.init))
        for member in current where !wanted.contains(ObjectIdentifier(member)) {
            member.setDestination(nil, inverse, in: context)
        }
        for member in objects where !present.contains(ObjectIdentifier(member)) {
            member.setDestination(self, inverse, in: context)
        }
    }
}
