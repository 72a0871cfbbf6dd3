import Foundation

extension ManagedObjectModel {
    /// The names of the model's named configurations, sorted (Core Data's `configurations`).
    public var configurations: [String] { configurationEntityNames.keys.sorted() }

    /// The entities of the configuration `name`, in the model's order (Core Data's
    /// `entities(forConfigurationName:)`): nil for a name the model does not have; every
    /// entity for nil, the default configuration.
    public func entities(forConfigurationName name: String?) -> [EntityDescription]? {
        guard let name else { return entities }
        return configurationEntityNames[name].map { $0.compactMap { entitiesByName[$0] } }
    }

    /// Whether a store with `metadata` can be opened as the store of configuration `name`
    /// (nil: the whole model) without a migration (Core Data's
    /// `isConfiguration(withName:compatibleWithStoreMetadata:)`).
    public func isConfiguration(withName name: String?, compatibleWithStoreMetadata metadata: StoreMetadata) -> Bool {
        guard let model = try? slice(forConfiguration: name) else { return false }
        return model.isConfiguration(compatibleWithStoreMetadata: metadata)
    }

    /// The join tables of `entities`' many-to-many relationships, each once: a sub-entity's
    /// inherited relationships share its superentity's.
    static func joinTables(of entities: [EntityDescription]) -> [JoinTable] {
        entities.flatMap { entity in
            entity.resolvedRelationships.dropFirst(entity.superentity?.relationships.count ?? 0).compactMap {
                $0.join?.isPrimary == true ? $0.join : nil
            }
        }
    }

    /// The entity names of each configuration in `configurations`, and what is wrong with
    /// them: an entity the model does not have, a hierarchy a configuration holds only part of.
    static func configurationEntityNames(
        _ configurations: [String: [EntityDescription]], of entities: [EntityDescription],
        in byName: [String: EntityDescription]
    ) -> ([String: [String]], [String]) {
        var names: [String: [String]] = [:]
        var problems: [String] = []
        for (configuration, members) in configurations.sorted(by: { $0.key < $1.key }) {
            for member in members where byName[member.name] !== member {
                problems.append(
                    "configuration \(configuration) names entity \(member.name), which is not one of the model's")
            }
            let held = Set(members.map(\.name))
            for entity in entities where held.contains(entity.name) {
                let hierarchy = entity.hierarchyRoot.selfAndDescendants
                if let missing = hierarchy.first(where: { !held.contains($0.name) }) {
                    problems.append(
                        "configuration \(configuration) holds \(entity.name) but not \(missing.name) of the same hierarchy, whose entities share one table"
                    )
                    break
                }
            }
            names[configuration] = entities.map(\.name).filter { held.contains($0) }
        }
        return (names, problems)
    }

    /// The model a store of configuration `name` is opened with: this model for nil (the
    /// default configuration), else the configuration's entities, which must keep their
    /// relationships among themselves (Core Data cannot save a relationship between objects
    /// of two stores; ManagedStore refuses the configuration when the store is added).
    func slice(forConfiguration name: String?) throws(ManagedStoreError) -> ManagedObjectModel {
        guard let name else { return self }
        guard let members = entities(forConfigurationName: name) else {
            let known = configurations.isEmpty ? "none" : configurations.joined(separator: ", ")
            throw .invalidModel(problems: ["the model has no configuration named \(name) (it has: \(known))"])
        }
        let held = Set(members.map(\.name))
        var problems: [String] = []
        for entity in members {
            for relationship in entity.relationships where !held.contains(relationship.destinationEntityName) {
                problems.append(
                    "configuration \(name) holds \(entity.name), whose relationship \(relationship.name) goes to \(relationship.destinationEntityName), which it does not hold: a relationship cannot join objects of two stores"
                )
            }
        }
        if !problems.isEmpty { throw .invalidModel(problems: problems) }
        return ManagedObjectModel(slicing: self, configuration: name, entities: members)
    }
}
