/// A relationship with what using it needs resolved once, when its model is made: the
/// destination entity, the slots of its to-one key on both sides, and its inverse; so that
/// setting one (an importer does it per row) looks nothing up by name. A class, so that passing
/// one around retains one reference rather than the descriptions' strings.
@usableFromInline
final class ResolvedRelationship: Sendable {
    @usableFromInline let description: RelationshipDescription
    /// The slot of this relationship's key, for a to-one.
    @usableFromInline let slot: Int?
    /// The destination entity (entities are immortal: see `Immortal`).
    @usableFromInline unowned(unsafe) let destination: EntityDescription
    /// The inverse, on the destination.
    @usableFromInline let inverse: RelationshipDescription?
    /// The slot of the inverse's key on the destination, when the inverse is to-one.
    @usableFromInline let inverseSlot: Int?
    /// The inverse's index among the destination's relationships (resolved too, once the model is).
    @usableFromInline let inverseIndex: Int?
    /// The join table, for a many-to-many relationship (a to-many whose inverse is to-many).
    let join: JoinTable?
    /// For a to-one whose inverse is ordered: the slot of this object's position among the
    /// inverse's members (its `Z_FOK_` column).
    let positionSlot: Int?
    /// For an ordered to-many: the slot of each member's position, on the destination.
    let memberPositionSlot: Int?

    init(
        description: RelationshipDescription, slot: Int?, destination: EntityDescription,
        inverse: RelationshipDescription?,
        inverseSlot: Int?, inverseIndex: Int?, join: JoinTable? = nil, positionSlot: Int? = nil,
        memberPositionSlot: Int? = nil
    ) {
        self.positionSlot = positionSlot
        self.memberPositionSlot = memberPositionSlot
        self.description = description
        self.slot = slot
        self.destination = destination
        self.inverse = inverse
        self.inverseSlot = inverseSlot
        self.inverseIndex = inverseIndex
        self.join = join
        self.name = description.name
        self.isToMany = description.isToMany
    }

    @usableFromInline let name: String
    @usableFromInline let isToMany: Bool
    /// True for a many-to-many relationship.
    var isManyToMany: Bool { join != nil }

    /// The inverse, resolved on the destination.
    var resolvedInverse: ResolvedRelationship? {
        inverseIndex.map { destination.resolvedRelationships[$0] }
    }
}
