extension ManagedObject {
    /// The objects `relationship` relates this one to: none or one for a to-one (a fault when
    /// not loaded yet), the members for a to-many (read from the store or parent, with the
    /// context's unsaved changes applied).
    @usableFromInline
    final func relatedObjects(_ relationship: ResolvedRelationship) -> [ManagedObject] {
        if relationship.isToMany {
            if isProbe {
                probeRelationships.append(relationship.name)
                return []
            }
            guard let context = managedObjectContext else {
                preconditionFailure(
                    "ManagedStore: relationship '\(relationship.name)' of \(objectID) was read outside a context")
            }
            do {
                return try context.members(of: self, relationship)
            } catch {
                preconditionFailure(
                    "ManagedStore: could not read relationship '\(relationship.name)' of \(objectID): \(error)")
            }
        }
        return destination(relationship).map { [$0] } ?? []
    }

    /// The destination of the to-one `relationship`, or nil.
    @usableFromInline
    final func destination(_ relationship: ResolvedRelationship) -> ManagedObject? {
        if let probe = probeDestination, let slot = relationship.slot {
            // A probe following to-ones: the destination is a probe, to tell what is read of it.
            probeReads.append(slot)
            return probe.entity === relationship.destination ? probe : nil
        }
        guard let slot = relationship.slot, case .object(let id) = readAttribute(slot) else { return nil }
        guard let context = managedObjectContext else {
            preconditionFailure(
                "ManagedStore: relationship '\(relationship.name)' of \(objectID) was read outside a context")
        }
        return context.object(with: id)
    }

    /// Sets the to-many `relationship` to `objects`, keeping the inverse in step on the other side.
    @usableFromInline
    final func setMembers(_ objects: [ManagedObject], _ relationship: ResolvedRelationship) {
        let context = checkedContext(for: objects, relationship)
        if relationship.isManyToMany {
            context.setManyToManyMembers(objects, of: self, relationship)
            return
        }
        guard relationship.inverseSlot != nil, let index = relationship.inverseIndex else { return }
        let resolvedInverse = relationship.destination.resolvedRelationships[index]
        let current = relatedObjects(relationship)
        let wanted = Set(objects.map(ObjectIdentifier.init))
        let present = Set(current.map(ObjectIdentifier.init))
        for member in current where !wanted.contains(ObjectIdentifier(member)) {
            member.setDestination(nil, resolvedInverse, in: context)
        }
        for member in objects where !present.contains(ObjectIdentifier(member)) {
            member.setDestination(self, resolvedInverse, in: context)
        }
    }

    /// Points the to-one `relationship` at `destination` (nil clears it), keeping the inverse
    /// in step.
    @usableFromInline
    final func setDestination(_ destination: ManagedObject?, _ relationship: ResolvedRelationship) {
        guard relationship.inverseSlot != nil else {
            // Only this side's key changes (no inverse, or a to-many one, which is read from
            // the keys): the context is checked by identity, never loaded (an importer sets
            // the run of every rate it inserts).
            checkAccess()
            guard let link, !link.isGone.load(ordering: .acquiring) else { trapOutsideContext(relationship) }
            if let destination { check(destination, joins: relationship, inContextWith: link) }
            setKey(destination, relationship)
            return
        }
        let context = checkedContext(relationship)
        if let destination { check(destination, joins: relationship, inContextWith: context.link) }
        setDestination(destination, relationship, in: context)
    }

    private func checkedContext(
        for objects: [ManagedObject], _ relationship: ResolvedRelationship
    ) -> ManagedObjectContext {
        let context = checkedContext(relationship)
        for object in objects { check(object, joins: relationship, inContextWith: context.link) }
        return context
    }

    private func checkedContext(_ relationship: ResolvedRelationship) -> ManagedObjectContext {
        checkAccess()
        guard let context = managedObjectContext else { trapOutsideContext(relationship) }
        return context
    }

    private func trapOutsideContext(_ relationship: ResolvedRelationship) -> Never {
        preconditionFailure(
            "ManagedStore: relationship '\(relationship.name)' of \(objectID) was set outside a context")
    }

    private func check(
        _ object: ManagedObject, joins relationship: ResolvedRelationship, inContextWith link: ContextLink
    ) {
        precondition(
            object.link === link,
            "ManagedStore: \(object.objectID) belongs to another context than \(objectID) (relationship '\(relationship.name)')"
        )
        precondition(
            object.entity === relationship.destination,
            "ManagedStore: \(object.objectID) is not a \(relationship.destination.name) (relationship '\(relationship.name)')"
        )
    }

    /// Whether a to-one key names an object that has no row yet (a temporary ID).
    final var referencesTemporaryID: Bool {
        let first = entity.persistentAttributes.count
        guard values.count > first else { return false }
        for slot in first..<values.count {
            if case .object(let id) = values[slot], id.isTemporaryID { return true }
        }
        return false
    }

    /// Sets the to-one key of `relationship` (one without a to-one inverse) to `destination`.
    private func setKey(_ destination: ManagedObject?, _ relationship: ResolvedRelationship) {
        guard let slot = relationship.slot else { return }
        writeAttribute(destination.map { .object($0.objectID) } ?? .null, slot: slot)
    }

    /// Points the to-one `relationship` at `destination`, and fixes the inverse: a to-one
    /// inverse is set on the new destination and cleared on the old one (and on the object the
    /// new destination pointed at before); a to-many inverse follows by itself (it is read from
    /// the to-one keys).
    func setDestination(
        _ destination: ManagedObject?, _ relationship: ResolvedRelationship, in context: ManagedObjectContext
    ) {
        guard let slot = relationship.slot else { return }
        let new: AttributeValue = destination.map { .object($0.objectID) } ?? .null
        guard let inverseSlot = relationship.inverseSlot else {
            setKey(destination, relationship)
            return
        }
        let old: ManagedObject? =
            if case .object(let id) = readAttribute(slot) { context.object(with: id) } else { nil }
        if old === destination { return }
        writeAttribute(new, slot: slot)
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
}
