/// Entity inheritance, as Core Data's SQLite store keeps it: a hierarchy (an entity, its
/// sub-entities, theirs) is one table, its root's, with a column per property of any of them
/// and `Z_ENT`, the entity of each row. A sub-entity's layout starts with its superentity's
/// whole layout, so that an inherited property has the same slot in both, and a fetch of an
/// entity reads the rows of its sub-entities too.
extension EntityDescription {
    /// Whether the entity shares its table with others (it has a superentity or sub-entities):
    /// its rows then name their entity in `Z_ENT`.
    var isInHierarchy: Bool { superentity != nil || !subentities.isEmpty }

    /// Whether the entity has a superentity, or is the superentity of one of `entities`
    /// (before a model sets ``subentities``).
    func isInHierarchyOf(_ entities: [EntityDescription]) -> Bool {
        superentity != nil || entities.contains { $0.superentity === self }
    }

    /// The entity whose table holds this one's rows: the root of its hierarchy.
    var hierarchyRoot: EntityDescription { superentity?.hierarchyRoot ?? self }

    /// The entity's name as an SQL string literal, the value of its rows' `Z_ENT`.
    var entityLiteral: String { "'" + name.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Whether this entity is `other` or one of its sub-entities, at any depth (Core Data's
    /// `isKindOf(entity:)`).
    public func isKindOf(entity other: EntityDescription) -> Bool {
        var current: EntityDescription? = self
        while let entity = current {
            if entity === other { return true }
            current = entity.superentity
        }
        return false
    }

    /// Whether an object of this entity is one a fetch of `other` finds: of `other`, or with
    /// `includingSubentities`, of one of its sub-entities.
    func matches(_ other: EntityDescription, includingSubentities: Bool) -> Bool {
        includingSubentities ? isKindOf(entity: other) : self === other
    }

    /// This entity and its sub-entities at any depth, superentities first.
    var selfAndDescendants: [EntityDescription] { [self] + subentities.flatMap(\.selfAndDescendants) }

    /// The properties this entity adds to its superentity's layout (all of them for a root).
    var ownStoredProperties: ArraySlice<AttributeDescription> {
        storedProperties.dropFirst(superentity?.storedProperties.count ?? 0)
    }

    /// The `Z_ENT` condition that limits a query of this entity's table to the rows of this
    /// entity (and of its sub-entities when `includingSubentities`); nil when no row of the
    /// table is another's.
    func entityCondition(includingSubentities: Bool) -> String? {
        guard isInHierarchy else { return nil }
        if includingSubentities && superentity == nil { return nil }
        let entities = includingSubentities ? selfAndDescendants : [self]
        return "Z_ENT IN (\(entities.map(\.entityLiteral).joined(separator: ", ")))"
    }

    /// The columns of the hierarchy's table when this entity is its root: its layout, then
    /// each descendant's own properties (nullable, since other entities' rows leave them empty).
    var tableColumns: [AttributeDescription] {
        storedProperties + selfAndDescendants.dropFirst().flatMap { $0.ownStoredProperties.map(\.nullable) }
    }

    /// What a fetch of this entity with its sub-entities selects (`Z_PK`, `Z_OPT`, `Z_ENT`, then
    /// the columns of every entity of the subtree), and each entity of it by the name its rows'
    /// `Z_ENT` holds, with the column that each of its slots reads.
    var subtreeSelection: Subtree {
        var names: [String] = storedProperties.map(\.name)
        var columnOf: [String: Int] = [:]
        for (index, name) in names.enumerated() { columnOf[name] = index }
        for entity in selfAndDescendants.dropFirst() {
            for property in entity.ownStoredProperties where columnOf[property.name] == nil {
                columnOf[property.name] = names.count
                names.append(property.name)
            }
        }
        var entities: [String: (entity: EntityDescription, slotColumns: [Int32])] = [:]
        for entity in selfAndDescendants {
            entities[entity.name] = (entity, entity.storedProperties.map { Int32(3 + columnOf[$0.name]!) })
        }
        let columns = (["Z_PK", "Z_OPT", "Z_ENT"] + names.map(SQLiteConnection.quote)).joined(separator: ", ")
        return Subtree(columns: columns, entities: entities)
    }

    /// The entity that declares the property `name` this one has: the highest superentity
    /// that has it (this entity when it declares it).
    func declaringEntity(of name: String) -> EntityDescription {
        var declaring = self
        while let parent = declaring.superentity,
            parent.relationshipsByName[name] != nil || parent.slotByName[name] != nil
        {
            declaring = parent
        }
        return declaring
    }

    /// The sub-entity (or this entity) named `name`, for a row's `Z_ENT` (looked up in the
    /// resolved subtree, once per row of a fetch).
    func descendant(named name: String) -> EntityDescription? {
        subtree?.entities[name]?.entity ?? selfAndDescendants.first { $0.name == name }
    }
}

extension AttributeDescription {
    /// The attribute as a column of a hierarchy's table that other entities' rows leave empty.
    var nullable: AttributeDescription {
        guard !isOptional else { return self }
        var copy = self
        copy.columnIsNullable = true
        return copy
    }
}
