import Foundation

/// The entities a store holds. A store made with one model is refused by a model whose
/// entities, attributes or uniqueness constraints differ.
///
/// ```swift
/// let model = ManagedObjectModel(entities: [noteEntity, tagEntity])
/// ```
///
/// Making a model checks each entity's class: every `@Attribute` property must name an
/// attribute of the entity with the same type and optionality (a mismatch is a programmer
/// error and traps with a message naming it).
public final class ManagedObjectModel: Sendable, CustomStringConvertible {
    /// The entities, in the order given.
    public let entities: [EntityDescription]
    /// The entities by name.
    public let entitiesByName: [String: EntityDescription]
    private let entitiesByClass: [ObjectIdentifier: EntityDescription]
    /// The SQL views the store keeps beside the entities' tables (see ``ViewDescription``).
    public let views: [ViewDescription]
    /// True when any entity has a relationship (saves then check and resolve them).
    let hasRelationships: Bool
    /// The join tables of the many-to-many relationships, one per pair (see `JoinTable`).
    let joinTables: [JoinTable]
    /// The SQL of the derived attributes (see ``Derivation``).
    let derivedAttributes: [DerivedAttributeSQL]
    /// The entities of each named configuration, by name, in the model's order (see
    /// ``entities(forConfigurationName:)``).
    let configurationEntityNames: [String: [String]]
    /// The configuration this model is the slice of, for a store added with one (nil: the
    /// whole model, Core Data's default configuration).
    let configurationName: String?
    /// For a configuration's slice, the names of the whole model's entities it does not hold:
    /// a store file that holds any of them is another configuration's (or the whole model's),
    /// and is refused rather than migrated, which would drop their tables.
    let entityNamesOutsideConfiguration: Set<String>

    /// A model of `entities`, and of `views` over their tables. Entity names must be unique,
    /// each class may stand for one entity, and view names must be unique.
    ///
    /// `configurations` names sets of the entities (Core Data's configurations, which
    /// `setEntities(_:forConfigurationName:)` makes): a store added with a
    /// ``PersistentStoreDescription/configuration`` holds only those entities, so that one
    /// coordinator can present several stores as one. A configuration holds every entity of a
    /// hierarchy it holds any of (a hierarchy is one table). The views belong to the default
    /// configuration, the whole model.
    public init(
        entities: [EntityDescription], views: [ViewDescription] = [],
        configurations: [String: [EntityDescription]] = [:]
    ) {
        var byName: [String: EntityDescription] = [:]
        var byClass: [ObjectIdentifier: EntityDescription] = [:]
        for entity in entities {
            precondition(byName[entity.name] == nil, "ManagedStore: the model has two entities named \(entity.name)")
            byName[entity.name] = entity
            if entity.managedObjectClass != ManagedObject.self {
                let key = ObjectIdentifier(entity.managedObjectClass)
                precondition(
                    byClass[key] == nil, "ManagedStore: class \(entity.managedObjectClass) stands for two entities")
                byClass[key] = entity
            }
        }
        // Mistakes a programmer makes in a model are reported by validate(), which adding a store
        // calls, naming the entity and the property, as Core Data reports an invalid model from
        // loadPersistentStores; not trapped here, where the program could not catch them.
        var problems = Self.relationshipProblems(of: entities, in: byName)
        // A relationship that names what the model does not have is not resolved: the model is
        // refused (validate()) before any store or object uses it.
        if problems.isEmpty { problems += Self.layOut(entities, in: byName) }
        let resolvable = problems.isEmpty
        for entity in entities {
            problems += entity.attributes.flatMap { $0.ruleProblems.map { "\(entity.name): \($0)" } }
            // A unique index would compare the files' references, not the values.
            for constraint in entity.uniquenessConstraints
            where constraint.contains(where: { entity.attribute(named: $0)?.allowsExternalBinaryDataStorage == true }) {
                problems.append(
                    "\(entity.name): the uniqueness constraint (\(constraint.joined(separator: ", "))) names an attribute with external storage, whose values the store cannot compare"
                )
            }
        }
        #if DEBUG
            // By reflection, which costs a command-line query a third of its start-up in a
            // release build (scripts/bench); there a mismatch traps at the property's first use.
            for entity in entities { problems += Self.attributePropertyProblems(of: entity) }
        #endif
        precondition(
            Set(views.map { $0.name.lowercased() }).count == views.count,
            "ManagedStore: the model has two views of one name")
        self.entities = entities
        self.views = views
        self.entitiesByName = byName
        self.entitiesByClass = byClass
        self.hasRelationships = entities.contains { !$0.relationships.isEmpty }
        if resolvable { for entity in entities { entity.resolveDestinations(in: byName) } }
        self.joinTables = Self.joinTables(of: entities)
        var derived: [DerivedAttributeSQL] = []
        for entity in entities where resolvable {
            for attribute in entity.attributes where attribute.derivationExpression != nil && !attribute.isTransient {
                guard attribute.derivation != nil else {
                    problems.append(
                        "\(entity.name).\(attribute.name) has the derivation expression '\(attribute.derivationExpression!)', which ManagedStore does not compute (a key path, a to-one's attribute, to-many.@count, to-many.@sum/@min/@max/@avg.attribute, now(), lowercase:, uppercase:, canonical:)"
                    )
                    continue
                }
                do {
                    derived.append(try DerivedAttributeSQL(attribute, of: entity))
                } catch {
                    problems.append(error.message)
                }
            }
        }
        self.derivedAttributes = derived
        let (names, configurationProblems) = Self.configurationEntityNames(configurations, of: entities, in: byName)
        self.configurationEntityNames = names
        self.configurationName = nil
        self.entityNamesOutsideConfiguration = []
        self.problems = problems + configurationProblems
    }

    /// The slice of `model` that `configuration` names: the same entity descriptions, already
    /// laid out and resolved by `model`, and what the store needs of them.
    init(slicing model: ManagedObjectModel, configuration: String, entities: [EntityDescription]) {
        let names = Set(entities.map(\.name))
        self.entities = entities
        self.entitiesByName = model.entitiesByName.filter { names.contains($0.key) }
        self.entitiesByClass = model.entitiesByClass.filter { names.contains($0.value.name) }
        self.views = []
        self.hasRelationships = entities.contains { !$0.relationships.isEmpty }
        self.joinTables = Self.joinTables(of: entities)
        self.derivedAttributes = model.derivedAttributes.filter { names.contains($0.entityName) }
        self.configurationEntityNames = [configuration: entities.map(\.name)]
        self.configurationName = configuration
        self.entityNamesOutsideConfiguration = Set(model.entities.map(\.name)).subtracting(names)
        self.problems = []
    }

    /// What is wrong with the model that only its use would show: a relationship to an entity
    /// the model does not have, an inverse that is not one, an `@Attribute` property the entity
    /// has no attribute for (checked in debug builds), a derived attribute's expression
    /// ManagedStore does not compute, or that does not fit its entity, a validation rule that
    /// cannot apply to its attribute.
    let problems: [String]

    /// Throws ``ManagedStoreError/invalidModel(problems:)`` naming everything wrong with the model
    /// at once (see ``problems``), as Core Data refuses such a model when a store is added with
    /// it. Adding a store calls it first.
    public func validate() throws(ManagedStoreError) {
        if !problems.isEmpty { throw ManagedStoreError.invalidModel(problems: problems) }
    }

    /// A checksum of everything a store records of the model (its entities' schema, as
    /// ``EntityDescription/versionHash`` per entity), as Core Data's `versionChecksum`: what a
    /// ``LightweightMigrationStage`` names a version by. Views and indexes do not count.
    public var versionChecksum: String { EntityDescription.hash(schemaLines) }

    /// Each entity's ``EntityDescription/versionHash``, by entity name (Core Data's
    /// `entityVersionHashesByName`).
    public var entityVersionHashesByName: [String: String] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.versionHash) })
    }

    /// Whether a store with `metadata` can be opened with this model as it is, without a
    /// migration (Core Data's `isConfiguration(withName:compatibleWithStoreMetadata:)`).
    public func isConfiguration(compatibleWithStoreMetadata metadata: StoreMetadata) -> Bool {
        metadata.entityVersionHashesByName == entityVersionHashesByName && metadata.entityNames == entities.map(\.name)
    }

    /// The entity whose objects are instances of `type`.
    public func entity(for type: ManagedObject.Type) -> EntityDescription? {
        entitiesByClass[ObjectIdentifier(type)]
    }

    /// The lines compared between a model and a store to decide whether they fit.
    var schemaLines: [String] { entities.flatMap(\.schemaLines) }

    public var description: String { entities.map(\.description).joined(separator: "\n") }

    /// Lays each entity out for this model before any is resolved: its sub-entities, and the
    /// position columns of the ordered relationships whose members it holds. Returns what
    /// cannot be laid out: a superentity the model lacks, a class that is not its
    /// superentity's subclass, a property two entities of one table declare, a derived
    /// attribute in a hierarchy, an ordered many-to-many, an entity another model laid out
    /// otherwise.
    static func layOut(_ entities: [EntityDescription], in byName: [String: EntityDescription]) -> [String] {
        var problems = hierarchyProblems(of: entities, in: byName)
        guard problems.isEmpty else { return problems }
        var toOnes: [ObjectIdentifier: [String]] = [:]
        for entity in entities {
            for relationship in entity.relationships.dropFirst(entity.superentity?.relationships.count ?? 0)
            where relationship.isOrdered {
                guard let inverseName = relationship.inverseName,
                    let destination = byName[relationship.destinationEntityName],
                    let inverse = destination.relationship(named: inverseName)
                else { continue }
                if inverse.isToMany {
                    problems.append(
                        "\(entity.name).\(relationship.name) is ordered and many-to-many, which ManagedStore does not keep (an ordered relationship's inverse must be to-one)"
                    )
                } else {
                    toOnes[ObjectIdentifier(destination.declaringEntity(of: inverseName)), default: []].append(
                        inverseName)
                }
            }
        }
        let depth = { (entity: EntityDescription) -> Int in
            var count = 0
            var current = entity.superentity
            while let parent = current { (count, current) = (count + 1, parent.superentity) }
            return count
        }
        for entity in entities.enumerated().sorted(by: {
            (depth($0.element), $0.offset) < (depth($1.element), $1.offset)
        })
        .map(\.element) {
            let subentities = entities.filter { $0.superentity === entity }
            if let problem = entity.requireLayout(
                positionsFor: toOnes[ObjectIdentifier(entity)] ?? [], subentities: subentities)
            {
                problems.append(problem)
            }
        }
        return problems
    }

    /// What is wrong with the model's hierarchies (see ``layOut(_:in:)``).
    static func hierarchyProblems(of entities: [EntityDescription], in byName: [String: EntityDescription]) -> [String]
    {
        var problems: [String] = []
        var tables: [String: [String: String]] = [:]  // root name: property name: entity declaring it
        for entity in entities {
            if let superentity = entity.superentity {
                if byName[superentity.name] !== superentity {
                    problems.append(
                        "entity \(entity.name) has the superentity \(superentity.name), which the model does not have")
                }
                if !isSubclass(entity.managedObjectClass, of: superentity.managedObjectClass) {
                    problems.append(
                        "entity \(entity.name)'s class \(entity.managedObjectClass) is not a subclass of \(superentity.managedObjectClass), the class of its superentity \(superentity.name)"
                    )
                }
            }
            guard entity.isInHierarchyOf(entities) else { continue }
            if let derived = entity.persistentAttributes.first(where: { $0.derivationExpression != nil }) {
                problems.append(
                    "\(entity.name).\(derived.name) is derived, and ManagedStore does not derive attributes of an entity with a superentity or sub-entities"
                )
            }
            let root = entity.hierarchyRoot.name
            let own =
                entity.persistentAttributes.dropFirst(entity.superentity?.persistentAttributes.count ?? 0).map(\.name)
                + entity.relationships.dropFirst(entity.superentity?.relationships.count ?? 0).filter { !$0.isToMany }
                .map(\.name)
            for name in own {
                if let other = tables[root]?[name] {
                    problems.append(
                        "\(entity.name).\(name) and \(other).\(name) would be one column of table \(root), which holds both entities' rows; give one another name"
                    )
                } else {
                    tables[root, default: [:]][name] = entity.name
                }
            }
        }
        return problems
    }

    /// Whether `type` is `base` or a subclass of it.
    static func isSubclass(_ type: AnyClass, of base: AnyClass) -> Bool {
        var current: AnyClass? = type
        while let cls = current {
            if ObjectIdentifier(cls) == ObjectIdentifier(base) { return true }
            current = _getSuperclass(cls)
        }
        return false
    }

    /// What is wrong between the relationships and the entities they name: a destination the
    /// model does not have, an inverse the destination does not have, or two relationships that
    /// are not each other's inverse.
    static func relationshipProblems(
        of entities: [EntityDescription], in byName: [String: EntityDescription]
    ) -> [String] {
        var problems: [String] = []
        for entity in entities {
            for relationship in entity.relationships {
                guard let destination = byName[relationship.destinationEntityName] else {
                    problems.append(
                        "relationship \(entity.name).\(relationship.name) names entity \(relationship.destinationEntityName), which the model does not have"
                    )
                    continue
                }
                guard let inverseName = relationship.inverseName else { continue }
                guard let inverse = destination.relationshipsByName[inverseName] else {
                    problems.append(
                        "relationship \(entity.name).\(relationship.name) names inverse \(inverseName), which entity \(destination.name) does not have"
                    )
                    continue
                }
                if byName[inverse.destinationEntityName].map({ entity.isKindOf(entity: $0) }) != true
                    || inverse.inverseName != relationship.name
                {
                    problems.append(
                        "\(entity.name).\(relationship.name) and \(destination.name).\(inverseName) are not each other's inverse"
                    )
                }
            }
        }
        return problems
    }

    /// What is wrong between each `@Attribute` property of the entity's class and the entity's
    /// attributes: a property with no attribute of its name, of another type, or optional where
    /// the attribute is not (or the reverse).
    #if DEBUG
        static func attributePropertyProblems(of entity: EntityDescription) -> [String] {
            var problems: [String] = []
            let probe = entity.managedObjectClass.init(entity: entity, insertInto: nil)
            var mirror: Mirror? = Mirror(reflecting: probe)
            while let current = mirror {
                for child in current.children {
                    guard let label = child.label, label.hasPrefix("_"),
                        let wrapper = child.value as? any AttributePropertyWrapper
                    else { continue }
                    let name = String(label.dropFirst())
                    guard let attribute = entity.attribute(named: name) else {
                        problems.append(
                            "\(entity.managedObjectClass).\(name) is an @Attribute, but entity \(entity.name) has no attribute '\(name)'"
                        )
                        continue
                    }
                    let valueType = type(of: wrapper).valueType
                    if valueType.attributeType != attribute.type {
                        problems.append(
                            "\(entity.managedObjectClass).\(name) is \(valueType), which does not store as \(attribute.type) (entity \(entity.name))"
                        )
                    } else if valueType.isOptionalAttribute != attribute.isOptional {
                        problems.append(
                            "\(entity.managedObjectClass).\(name) is \(valueType), but attribute '\(name)' of \(entity.name) is \(attribute.isOptional ? "optional" : "not optional")"
                                + (attribute.derivation != nil
                                    ? " (a derived attribute is always optional: nil until its object is first saved)"
                                    : ""))
                    }
                }
                mirror = current.superclassMirror
            }
            return problems
        }
    #endif
}
