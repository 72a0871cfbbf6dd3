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
        var wanted = Set<ObjectIdentifier>()
        // An ordered set holds each object once, at its first place (as NSOrderedSet(array:)).
        let objects = objects.filter { wanted.insert(ObjectIdentifier($0)).inserted }
        let present = Set(current.map(ObjectIdentifier.init))
        let position = relationship.memberPositionSlot
        for member in current where !wanted.contains(ObjectIdentifier(member)) {
            member.setDestination(nil, resolvedInverse, in: context)
            if let position { member.writeAttribute(.null, slot: position) }
        }
        for member in objects where !present.contains(ObjectIdentifier(member)) {
            member.setDestination(self, resolvedInverse, in: context)
        }
        guard let position else { return }
        // Only the members whose place changed are changed (as Core Data renumbers them).
        for (place, member) in objects.enumerated() where member.readAttribute(position) != .integer(Int64(place)) {
            member.writeAttribute(.integer(Int64(place)), slot: position)
        }
    }

    /// Points the to-one `relationship` at `destination` (nil clears it), keeping the inverse
    /// in step.
    @usableFromInline
    final func setDestination(_ destination: ManagedObject?, _ relationship: ResolvedRelationship) {
        if let position = relationship.positionSlot {
            setOrderedDestination(destination, relationship, position: position)
            return
        }
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

    /// Points the to-one `relationship`, whose inverse is ordered, at `destination`: the object
    /// becomes the destination's last member (Core Data appends it), or leaves its place.
    private func setOrderedDestination(
        _ destination: ManagedObject?, _ relationship: ResolvedRelationship, position: Int
    ) {
        let context = checkedContext(relationship)
        if let destination { check(destination, joins: relationship, inContextWith: context.link) }
        guard let slot = relationship.slot else { return }
        let new: AttributeValue = destination.map { .object($0.objectID) } ?? .null
        if readAttribute(slot) == new { return }
        var place = AttributeValue.null
        if let destination, let inverse = relationship.resolvedInverse {
            let members = destination.relatedObjects(inverse)
            let places = members.compactMap { member -> Int64? in
                if case .integer(let place) = member.readAttribute(position) { place } else { nil }
            }
            if places.count == members.count {
                place = .integer(places.max().map { $0 + 1 } ?? 0)
            } else {
                // Members without a place (a batch insert's, or older than the order) are last
                // already: they take their places, so that this one can come after them.
                for (index, member) in members.enumerated()
                where member.readAttribute(position) != .integer(Int64(index)) {
                    member.writeAttribute(.integer(Int64(index)), slot: position)
                }
                place = .integer(Int64(members.count))
            }
        }
        setKey(destination, relationship)
        writeAttribute(place, slot: position)
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
            object.entity.isKindOf(entity: relationship.destination),
            "ManagedStore: \(object.objectID) is not a \(relationship.destination.name) (relationship '\(relationship.name)')"
        )
    }

    /// Whether a to-one key names an object that has no row yet (a temporary ID).
    final var referencesTemporaryID: Bool {
        guard values.count >= entity.storedProperties.count else { return false }
        for slot in entity.toOneSlots {
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
