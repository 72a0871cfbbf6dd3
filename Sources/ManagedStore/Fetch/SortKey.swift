import Foundation

/// One sort descriptor of a fetch, as the store orders rows by it and the context orders its
/// unsaved objects by it: an attribute of the fetched entity, or an attribute of the object a
/// to-one relationship leads to (`\Book.author?.name`, Core Data's `author.name`).
struct SortKey: Sendable {
    /// The attribute's slot, or the to-one's when sorting through one.
    let slot: Int
    let ascending: Bool
    /// For a sort through the to-one at `slot`: its destination and the attribute's slot there.
    let through: (destination: EntityDescription, slot: Int)?

    /// The SQL term the store orders by: the column, or the destination's value read by a
    /// subquery (a nil relationship, or a nil value, sorts first, as NULL does).
    func sql(in entity: EntityDescription, compiler: PredicateSQLCompiler) -> String {
        guard let through else { return compiler.column(slot, ordering: true) }
        let attribute = through.destination.storedProperties[through.slot]
        var value = "z.\(through.destination.quotedColumns[through.slot])"
        if attribute.type == .decimal { value = "CAST(\(value) AS REAL)" }
        return
            "(SELECT \(value) FROM \(through.destination.quotedTable) AS z WHERE z.Z_PK = \(entity.quotedTable).\(entity.quotedColumns[slot]))"
    }

    /// How the store's value of the key reads: its attribute type and, for a to-one, its
    /// destination.
    func decoding(in entity: EntityDescription) -> (type: AttributeType, destination: EntityDescription?) {
        guard let through else { return (entity.storedProperties[slot].type, entity.slotDestinations[slot]) }
        return (
            through.destination.storedProperties[through.slot].type, through.destination.slotDestinations[through.slot]
        )
    }

    /// The key's value for `object`, with the context's unsaved changes (a related object's
    /// too): what the store would order it by once saved.
    func value(of object: ManagedObject) -> AttributeValue {
        let own = object.values[slot]
        guard let through else { return own }
        guard case .object(let id) = own, let context = object.managedObjectContext,
            let related = try? context.existingObject(with: id)
        else { return .null }
        return related.values.indices.contains(through.slot) ? related.values[through.slot] : .null
    }
}
