/// A context's unsaved links and unlinks of many-to-many relationships: for each pair of
/// objects, whether the latest change linked or unlinked them. Both relationships of a pair
/// read the same entry, so the inverse is in step by construction.
///
/// Entries name objects, not IDs, so that an inserted object's entry follows it when it takes
/// a permanent ID. Confined to the context's queue, like the context's other change sets.
struct ManyToManyChanges {
    /// One pair's latest change, seen from the pair's primary side (see `JoinTable`).
    struct Change {
        /// The primary side's relationship.
        let relationship: ResolvedRelationship
        /// The object on the primary side, and the one on the other.
        let owner: ManagedObject
        let member: ManagedObject
        /// True when linked, false when unlinked.
        var linked: Bool
    }

    private struct Key: Hashable {
        let table: String
        let owner: ObjectIdentifier
        let member: ObjectIdentifier
    }

    private struct Side: Hashable {
        let object: ObjectIdentifier
        let relationship: String
    }

    private var entries: [Key: Change] = [:]
    /// The keys in the order they were first changed, so that a save writes them in that order.
    private var order: [Key] = []
    /// Each object's entries per relationship, from its side, by the other object.
    private var bySide: [Side: [ObjectIdentifier: Key]] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// Records that `object` and `other` are now linked (or not) by `relationship` of `object`.
    mutating func set(
        _ linked: Bool, _ object: ManagedObject, _ relationship: ResolvedRelationship, _ other: ManagedObject
    ) {
        guard let join = relationship.join, let inverse = relationship.resolvedInverse else { return }
        let (primary, secondary) = join.isPrimary ? (relationship, inverse) : (inverse, relationship)
        // A relationship that is its own inverse keeps one entry per pair, whichever object
        // the change came from.
        let (owner, member) =
            join.isSymmetric
            ? (ObjectIdentifier(object) < ObjectIdentifier(other) ? (object, other) : (other, object))
            : join.isPrimary ? (object, other) : (other, object)
        let key = Key(table: join.name, owner: ObjectIdentifier(owner), member: ObjectIdentifier(member))
        if entries[key] == nil {
            order.append(key)
            bySide[Side(object: ObjectIdentifier(owner), relationship: primary.name), default: [:]][
                ObjectIdentifier(member)] = key
            bySide[Side(object: ObjectIdentifier(member), relationship: secondary.name), default: [:]][
                ObjectIdentifier(owner)] = key
            entries[key] = Change(relationship: primary, owner: owner, member: member, linked: linked)
        } else {
            entries[key]!.linked = linked
        }
    }

    /// The objects `object`'s `relationship` was linked to (true) or unlinked from (false).
    func changes(
        of object: ManagedObject, _ relationship: ResolvedRelationship
    ) -> [(object: ManagedObject, linked: Bool)] {
        guard let keys = bySide[Side(object: ObjectIdentifier(object), relationship: relationship.name)] else {
            return []
        }
        return keys.values.compactMap { key in
            guard let change = entries[key] else { return nil }
            return (change.owner === object ? change.member : change.owner, change.linked)
        }
    }

    /// The many-to-many relationships of `object` with a change.
    func changedRelationships(of object: ManagedObject) -> [String] {
        object.entity.resolvedRelationships.compactMap { relationship in
            relationship.isManyToMany
                && bySide[Side(object: ObjectIdentifier(object), relationship: relationship.name)] != nil
                ? relationship.name : nil
        }
    }

    /// Every change, in the order the pairs were first changed.
    var all: [Change] { order.compactMap { entries[$0] } }

    /// Forgets the changes that involve `object` (a refresh that drops its unsaved changes).
    mutating func remove(involving object: ManagedObject) {
        let id = ObjectIdentifier(object)
        let gone = Set(entries.filter { $0.key.owner == id || $0.key.member == id }.keys)
        guard !gone.isEmpty else { return }
        for key in gone { entries[key] = nil }
        order.removeAll { gone.contains($0) }
        for side in Array(bySide.keys) {
            bySide[side] = bySide[side]!.filter { !gone.contains($0.value) }
            if bySide[side]!.isEmpty { bySide[side] = nil }
        }
    }

    mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        bySide.removeAll()
    }
}
