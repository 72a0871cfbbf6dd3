/// A child context keeps the temporary IDs of its objects when its parent saves them and they
/// take permanent IDs there (Core Data's behaviour: a child's objects stay temporary until the
/// child obtains permanent IDs or merges the parent's save). So a parent that has children
/// remembers each temporary ID it retired: it finds an object by either ID when a child asks
/// or saves, and it tells a child, with the rows it sends, the temporary ID each object had,
/// which the child uses where it holds the object by that ID.
extension ManagedObjectContext {
    /// Rows a parent sends a child, with the temporary IDs (by permanent ID) that the objects
    /// they name had in the parent.
    struct RowsForChild: Sendable {
        var rows: [RowSnapshot]
        var temporaryIDs: [ManagedObjectID: ManagedObjectID]
    }

    /// `rows`, to send to a child (call on this, the parent's, queue).
    func forChild(_ rows: [RowSnapshot]) -> RowsForChild {
        hasChildren = true
        guard !temporaryIDsByPermanent.isEmpty else { return RowsForChild(rows: rows, temporaryIDs: [:]) }
        var temporaryIDs: [ManagedObjectID: ManagedObjectID] = [:]
        for row in rows {
            if let temporary = temporaryIDsByPermanent[row.id] { temporaryIDs[row.id] = temporary }
            for case .object(let id) in row.values {
                if let temporary = temporaryIDsByPermanent[id] { temporaryIDs[id] = temporary }
            }
        }
        return RowsForChild(rows: rows, temporaryIDs: temporaryIDs)
    }

    /// Rows a parent sent, with this context's IDs: an object this context holds by the
    /// temporary ID it had is named by that ID.
    func fromParent(_ sent: RowsForChild) -> [RowSnapshot] {
        let held = sent.temporaryIDs.filter { lookUp($0.value) != nil }
        guard !held.isEmpty else { return sent.rows }
        return sent.rows.map { row in
            RowSnapshot(
                id: held[row.id] ?? row.id, version: row.version,
                values: row.values.map { value in
                    if case .object(let id) = value, let temporary = held[id] { return .object(temporary) }
                    return value
                })
        }
    }

    /// The ID this context knows an object by, for an ID a child sent (a temporary ID this
    /// context retired is its permanent one now).
    func resolvedFromChild(_ id: ManagedObjectID) -> ManagedObjectID {
        id.isTemporaryID ? retiredTemporaryIDs[id] ?? id : id
    }

    /// A child's values, with this context's IDs.
    func resolvedFromChild(_ values: [AttributeValue]) -> [AttributeValue] {
        guard !retiredTemporaryIDs.isEmpty else { return values }
        return values.map { value in
            if case .object(let id) = value { return .object(resolvedFromChild(id)) }
            return value
        }
    }

    /// Notes that `temporary` became `permanent` here, when children may know the temporary one.
    func retire(_ temporary: ManagedObjectID, for permanent: ManagedObjectID) {
        guard hasChildren, temporary.isTemporaryID, !permanent.isTemporaryID else { return }
        retiredTemporaryIDs[temporary] = permanent
        temporaryIDsByPermanent[permanent] = temporary
    }
}
