import Foundation

/// Core Data's validation: the model's checks, which the overridable `validateFor…` and
/// `validateValue(_:forKey:)` methods of ``ManagedObject`` run by default.
extension ManagedObject {
    /// Each attribute's value through ``validateValue(_:forKey:)``, then the relationships'
    /// optionality and counts; every failure at once.
    final func validateProperties() throws {
        var failures: [ValidationFailure] = []
        func check(_ value: AttributeValue, _ attribute: AttributeDescription) {
            do {
                try validateValue(value, forKey: attribute.name)
            } catch {
                failures += ValidationFailure.failures(from: error, of: objectID, attribute: attribute.name)
            }
        }
        for (slot, attribute) in zip(entity.attributeSlots, entity.persistentAttributes)
        where attribute.derivation == nil {
            check(values[slot], attribute)
        }
        for (index, attribute) in entity.transientAttributes.enumerated() { check(transientValues[index], attribute) }
        if entity.validatesRelationships { collectRelationshipFailures(into: &failures) }
        if !failures.isEmpty { throw ManagedStoreError.validationFailed(failures) }
    }

    /// The deletions a `.deny` relationship refuses.
    final func validateDeletion() throws {
        guard entity.deniesDeletion else { return }
        var failures: [ValidationFailure] = []
        for relationship in entity.resolvedRelationships where relationship.description.deleteRule == .deny {
            let related = relatedObjects(relationship).filter { !$0.isDeletedState }
            if !related.isEmpty {
                failures.append(
                    ValidationFailure(
                        objectID: objectID, attribute: relationship.name, code: .relationshipDeniedDelete,
                        reason:
                            "denies the deletion: it still relates to \(related.count) object\(related.count == 1 ? "" : "s") (\(related.prefix(3).map(\.objectID.description).joined(separator: ", ")))"
                    ))
            }
        }
        if !failures.isEmpty { throw ManagedStoreError.validationFailed(failures) }
    }

    /// The model's checks of one value for `key`: nil where the attribute is not optional, and
    /// each ``ValidationRule`` of the attribute.
    final func validateModelRules(_ value: AttributeValue, forKey key: String) throws {
        guard let slot = entity.slotByName[key], let attribute = entity.attribute(atSlot: slot) else {
            // A to-one's value is checked with the relationships; a to-many has no slot.
            if entity.relationshipsByName[key] != nil { return }
            throw ManagedStoreError.validationFailed([
                ValidationFailure(
                    objectID: objectID, attribute: key, code: .managedObjectValidation, value: value,
                    reason: "entity \(entity.name) has no property '\(key)'")
            ])
        }
        if value.isNull {
            guard !attribute.isOptional else { return }
            throw ManagedStoreError.validationFailed([
                ValidationFailure(
                    objectID: objectID, attribute: key, code: .missingMandatoryProperty, value: value,
                    reason: "is nil, but the attribute is not optional")
            ])
        }
        guard !attribute.validationRules.isEmpty else { return }
        let failures = attribute.validationRules.compactMap { rule in
            rule.check(value).map {
                ValidationFailure(objectID: objectID, attribute: key, code: $0.code, value: value, reason: $0.reason)
            }
        }
        if !failures.isEmpty { throw ManagedStoreError.validationFailed(failures) }
    }

    /// What is wrong with the object's relationships for a save: a mandatory to-one that is nil,
    /// a to-many that is empty but not optional, or outside its counts.
    private func collectRelationshipFailures(into failures: inout [ValidationFailure]) {
        for relationship in entity.resolvedRelationships {
            let description = relationship.description
            if relationship.isToMany {
                guard !description.isOptional || description.minCount > 0 || description.maxCount > 0 else {
                    continue
                }
                let count = relatedObjects(relationship).count
                let range = "\(description.minCount)...\(description.maxCount == 0 ? "" : String(description.maxCount))"
                if !description.isOptional && count == 0 {
                    failures.append(
                        ValidationFailure(
                            objectID: objectID, attribute: relationship.name, code: .missingMandatoryProperty,
                            reason: "is empty, but the relationship is not optional"))
                } else if count < description.minCount {
                    failures.append(
                        ValidationFailure(
                            objectID: objectID, attribute: relationship.name, code: .relationshipLacksMinimumCount,
                            reason: "has \(count) objects, outside \(range)"))
                } else if description.maxCount > 0 && count > description.maxCount {
                    failures.append(
                        ValidationFailure(
                            objectID: objectID, attribute: relationship.name, code: .relationshipExceedsMaximumCount,
                            reason: "has \(count) objects, outside \(range)"))
                }
            } else if let slot = relationship.slot, !description.isOptional, values[slot].isNull {
                failures.append(
                    ValidationFailure(
                        objectID: objectID, attribute: relationship.name, code: .missingMandatoryProperty,
                        reason: "is nil, but the relationship is not optional"))
            }
        }
    }
}

extension ValidationFailure {
    /// The failures an error thrown by a validation method stands for: its own list for
    /// ``ManagedStoreError/validationFailed(_:)``, else one failure that carries it.
    static func failures(from error: any Error, of objectID: ManagedObjectID, attribute: String?) -> [ValidationFailure]
    {
        if case ManagedStoreError.validationFailed(let failures) = error { return failures }
        return [
            ValidationFailure(
                objectID: objectID, attribute: attribute, code: .managedObjectValidation, value: nil,
                reason: (error as? LocalizedError)?.errorDescription ?? String(describing: error), underlying: error)
        ]
    }
}
