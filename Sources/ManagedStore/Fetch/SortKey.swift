import Foundation

/// One sort descriptor of a fetch, as the store orders rows by it and the context orders its
/// unsaved objects by it: an attribute of the fetched entity, or an attribute of the object a
/// chain of to-one relationships leads to (`\Book.author?.name`, Core Data's `author.name`;
/// `\Review.book?.author?.name`, `book.author.name`).
struct SortKey: Sendable {
    /// One step through a to-one: the entity it reaches, and the slot read there (the next
    /// to-one's, or at the last step the attribute's).
    typealias Hop = (destination: EntityDescription, slot: Int)

    /// The attribute's slot, or the first to-one's when sorting through one.
    let slot: Int
    let ascending: Bool
    /// For a sort through to-ones: each step from the to-one at `slot` (empty: `slot` is the
    /// attribute sorted by).
    let through: [Hop]

    /// The SQL term the store orders by: the column, or the last destination's value read by
    /// nested subqueries (a nil relationship, or a nil value, sorts first, as NULL does).
    func sql(in entity: EntityDescription, compiler: PredicateSQLCompiler) -> String {
        guard let last = through.last else { return compiler.column(slot, ordering: true) }
        var value = "z\(through.count).\(last.destination.quotedColumns[last.slot])"
        if last.destination.storedProperties[last.slot].type == .decimal { value = "CAST(\(value) AS REAL)" }
        // From the far end inwards: each subquery reads its row by the key the outer row holds.
        for depth in stride(from: through.count, through: 1, by: -1) {
            let hop = through[depth - 1]
            let outerKey =
                depth == 1
                ? "\(entity.quotedTable).\(entity.quotedColumns[slot])"
                : "z\(depth - 1).\(through[depth - 2].destination.quotedColumns[through[depth - 2].slot])"
            value =
                "(SELECT \(value) FROM \(hop.destination.quotedTable) AS z\(depth) WHERE z\(depth).Z_PK = \(outerKey))"
        }
        return value
    }

    /// How the store's value of the key reads: its attribute type and, for a to-one, its
    /// destination.
    func decoding(in entity: EntityDescription) -> (type: AttributeType, destination: EntityDescription?) {
        guard let last = through.last else {
            return (entity.storedProperties[slot].type, entity.slotDestinations[slot])
        }
        return (last.destination.storedProperties[last.slot].type, last.destination.slotDestinations[last.slot])
    }

    /// The key's value for `object`, with the context's unsaved changes (the related objects'
    /// too): what the store would order it by once saved.
    func value(of object: ManagedObject) -> AttributeValue {
        var value = object.values[slot]
        for hop in through {
            guard case .object(let id) = value, let context = object.managedObjectContext,
                let related = try? context.existingObject(with: id), related.values.indices.contains(hop.slot)
            else { return .null }
            value = related.values[hop.slot]
        }
        return value
    }
}
