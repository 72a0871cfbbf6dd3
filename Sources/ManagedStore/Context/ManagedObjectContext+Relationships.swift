import Foundation

extension ManagedObjectContext {
    /// The members of `owner`'s to-many `relationship`: the destination objects whose to-one
    /// inverse points at `owner`, in the store (or the parent) and among this context's
    /// objects, its unsaved changes counted.
    func members(of owner: ManagedObject, _ relationship: RelationshipDescription) throws -> [ManagedObject] {
        guard let inverseName = relationship.inverseName,
              let destination = model.entitiesByName[relationship.destinationEntityName],
              let slot = destination.slotByName[inverseName] else { return [] }
        let target = AttributeValue.object(owner.objectID)
        var result: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        if !owner.objectID.isTemporaryID || parent != nil {
            for row in try memberRows(ownerID: owner.objectID, destination: destination, slot: slot) {
                let object = materialize(row)
                guard !object.isDeletedState, object.values.indices.contains(slot), object.values[slot] == target else { continue }
                if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
            }
        }
        for object in inserted.objects where object.entity === destination && object.values[slot] == target {
            if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
        }
        for object in updated.values where object.entity === destination && !object.isDeletedState && !object.isFaultState
            && object.values[slot] == target {
            if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
        }
        return result
    }

    /// The rows of `destination` whose column `slot` holds `ownerID`, as this context's source
    /// has them (the store, or the parent's current objects).
    private func memberRows(ownerID: ManagedObjectID, destination: EntityDescription, slot: Int) throws -> [RowSnapshot] {
        if let parent {
            return try parent.performAndWait { () throws -> [RowSnapshot] in
                // An owner inserted in this child is unknown to the parent: it has no members there.
                guard let owner = parent.lookUp(ownerID) ?? (ownerID.isTemporaryID ? nil : parent.object(with: ownerID)) else { return [] }
                guard let relationship = destination.relationships.first(where: { $0.name == destination.storedProperties[slot].name }),
                      let inverseName = relationship.inverseName,
                      let toMany = ownerID.entity.relationshipsByName[inverseName] else { return [] }
                return try parent.members(of: owner, toMany).map { RowSnapshot(id: $0.objectID, version: $0.version, values: $0.values) }
            }
        }
        var query = StoreQuery(entity: destination)
        query.whereClause = "\(destination.quotedColumns[slot]) = ?"
        query.arguments = [.integer(ownerID.key)]
        query.orderBy = "Z_PK"
        return try store().fetch(query)
    }

    /// Applies the delete rules of `object`'s relationships, as its deletion begins: nullify
    /// clears the inverse on the related objects, cascade deletes them, deny and no action
    /// leave them (deny is checked when the context saves).
    func propagateDeletion(of object: ManagedObject) {
        for relationship in object.entity.relationships {
            switch relationship.deleteRule {
            case .noAction, .deny:
                continue
            case .nullify:
                guard let inverseName = relationship.inverseName,
                      let destination = model.entitiesByName[relationship.destinationEntityName],
                      let inverse = destination.relationshipsByName[inverseName], !inverse.isToMany,
                      let inverseSlot = destination.slotByName[inverseName] else { continue }
                for related in object.relatedObjects(relationship) where !related.isDeletedState {
                    if case .object(let id) = related.readAttribute(inverseSlot), id == object.objectID {
                        related.writeAttribute(.null, slot: inverseSlot)
                    }
                }
            case .cascade:
                for related in object.relatedObjects(relationship) where !related.isDeletedState && related.managedObjectContext === self {
                    delete(related)
                }
            }
        }
    }

    /// What a save finds wrong with the relationships of the objects it writes and deletes:
    /// mandatory to-ones that are nil, to-manys outside their counts, references to objects
    /// that will not be saved, and deletions a deny rule forbids.
    func relationshipFailures(saving objects: [ManagedObject], deleting deletedObjects: [ManagedObject]) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for object in objects where !object.entity.relationships.isEmpty {
            for relationship in object.entity.relationships {
                if relationship.isToMany {
                    guard !relationship.isOptional || relationship.minCount > 0 || relationship.maxCount > 0 else { continue }
                    let count = object.relatedObjects(relationship).count
                    if !relationship.isOptional && count == 0 {
                        failures.append(ValidationFailure(objectID: object.objectID, attribute: relationship.name,
                                                          reason: "is empty, but the relationship is not optional"))
                    } else if count < relationship.minCount || (relationship.maxCount > 0 && count > relationship.maxCount) {
                        failures.append(ValidationFailure(objectID: object.objectID, attribute: relationship.name,
                                                          reason: "has \(count) objects, outside \(relationship.minCount)...\(relationship.maxCount == 0 ? "" : String(relationship.maxCount))"))
                    }
                    continue
                }
                guard let slot = object.entity.slotByName[relationship.name] else { continue }
                switch object.values[slot] {
                case .null where !relationship.isOptional:
                    failures.append(ValidationFailure(objectID: object.objectID, attribute: relationship.name,
                                                      reason: "is nil, but the relationship is not optional"))
                case .object(let id) where id.isTemporaryID && lookUp(id).map({ !$0.isInsertedState }) ?? true:
                    failures.append(ValidationFailure(objectID: object.objectID, attribute: relationship.name,
                                                      reason: "relates to \(id), which is not inserted in this context, so it would never be saved"))
                default:
                    break
                }
            }
        }
        for object in deletedObjects {
            for relationship in object.entity.relationships where relationship.deleteRule == .deny {
                let related = object.relatedObjects(relationship).filter { !$0.isDeletedState }
                if !related.isEmpty {
                    failures.append(ValidationFailure(objectID: object.objectID, attribute: relationship.name,
                                                      reason: "denies the deletion: it still relates to \(related.count) object\(related.count == 1 ? "" : "s") (\(related.prefix(3).map(\.objectID.description).joined(separator: ", ")))"))
                }
            }
        }
        return failures
    }

    /// Gives permanent IDs to the inserted objects that the saved objects' to-one relationships
    /// point at, and rewrites those references, so that the store can write their keys.
    func makeReferencedIDsPermanent(_ objects: [ManagedObject]) throws {
        var referenced = Set<ManagedObjectID>()
        for object in objects where object.entity.storedProperties.count > object.entity.attributes.count {
            for slot in object.entity.attributes.count..<object.values.count {
                if case .object(let id) = object.values[slot], id.isTemporaryID { referenced.insert(id) }
            }
        }
        guard !referenced.isEmpty else { return }
        let pairs = referenced.compactMap { id in lookUp(id).map { (id, $0) } }
        try obtainPermanentIDs(for: pairs.map(\.1))
        var permanent: [ManagedObjectID: ManagedObjectID] = [:]
        for (id, object) in pairs { permanent[id] = object.objectID }
        for object in objects where object.entity.storedProperties.count > object.entity.attributes.count {
            for slot in object.entity.attributes.count..<object.values.count {
                if case .object(let id) = object.values[slot], let new = permanent[id] { object.values[slot] = .object(new) }
            }
        }
    }
}
