import Foundation

extension InferredMigration {
    /// What a lightweight migration does to the hierarchies (entities with a superentity or
    /// sub-entities, one table each): what it infers is adding, to a hierarchy whose entities
    /// keep their names and superentities, new attributes and to-ones (optional, or with a
    /// default) and new sub-entities, or making a stored entity the root of a new hierarchy
    /// (its rows its own, in `Z_ENT`). A rename, a removal, a change of type, optionality,
    /// constraints or superentity would move columns between the entities of one table, and is
    /// refused, naming the entity.
    ///
    /// Returns the changes, and the names of the model's and the store's entities they cover.
    static func hierarchyChanges(
        from stored: [StoredEntity], to model: ManagedObjectModel, url: URL, summary: inout [String]
    ) throws -> (changes: [TableChange], modelNames: Set<String>, storedNames: Set<String>) {
        let parents = Set(stored.compactMap(\.superentityName))
        let storedByName = Dictionary(stored.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func refuse(_ entity: String, _ property: String?, _ reason: String) -> ManagedStoreError {
            .cannotInferMapping(url: url, entity: entity, property: property, reason: reason)
        }
        var changes: [TableChange] = []
        var modelNames = Set<String>()
        var storedNames = Set<String>()
        // Stored entities of a hierarchy the model no longer has, or has outside it.
        for old in stored where old.superentityName != nil || parents.contains(old.name) {
            guard let entity = model.entitiesByName[old.name], entity.isInHierarchy,
                entity.superentity?.name == old.superentityName
            else {
                throw refuse(
                    old.name, nil,
                    "it is in a hierarchy of the store, which the model removes it from, moves or renames; ManagedStore infers only additions to a hierarchy"
                )
            }
        }
        for entity in model.entities where entity.isInHierarchy {
            modelNames.insert(entity.name)
            let root = entity.hierarchyRoot
            let own = Array(entity.ownStoredProperties)
            guard let old = storedByName[entity.name] else {
                if storedByName[root.name] == nil {
                    // A new hierarchy: its root's table has every entity's columns.
                    if entity.superentity == nil { changes.append(.create(entity)) }
                } else {
                    try checkAdded(own, of: entity, refuse)
                    changes.append(.addColumns(table: root.quotedTable, columns: own.map(\.nullable), entity: nil))
                }
                summary.append("adds entity \(entity.name)")
                continue
            }
            storedNames.insert(old.name)
            if entity.renamingIdentifier != nil && entity.renamingIdentifier != old.name {
                throw refuse(entity.name, nil, "a rename in a hierarchy is not inferred")
            }
            var added: [AttributeDescription] = []
            for property in own {
                let relationship = entity.relationshipsByName[property.name]
                let kind = relationship.map { "-> \($0.destinationEntityName)" } ?? property.type.rawValue
                let isOptional = relationship?.isOptional ?? property.isOptional
                guard let column = old.column(named: property.name) else {
                    try checkAdded([property], of: entity, refuse)
                    added.append(entity.superentity == nil ? property : property.nullable)
                    summary.append("adds \(entity.name).\(property.name)")
                    continue
                }
                if column.kind != kind || column.isOptional != isOptional {
                    throw refuse(
                        entity.name, property.name,
                        "its type or optionality changed in a hierarchy's table, which ManagedStore does not infer")
                }
            }
            for column in old.columns where !own.contains(where: { $0.name == column.name }) {
                throw refuse(entity.name, column.name, "its removal from a hierarchy's table is not inferred")
            }
            let constraints = entity.uniquenessConstraints.dropFirst(
                entity.superentity?.uniquenessConstraints.count ?? 0)
            if old.uniquenessConstraints != Array(constraints) {
                throw refuse(entity.name, nil, "its uniqueness constraints changed in a hierarchy's table")
            }
            // A stored entity that becomes a hierarchy's root: its rows are its own.
            let becomesRoot = entity.superentity == nil && !parents.contains(entity.name)
            if !added.isEmpty || becomesRoot {
                changes.append(
                    .addColumns(table: entity.quotedTable, columns: added, entity: becomesRoot ? entity : nil))
            }
        }
        return (changes, modelNames, storedNames)
    }

    /// Refuses a new property the stored rows could have no value for.
    private static func checkAdded(
        _ properties: [AttributeDescription], of entity: EntityDescription,
        _ refuse: (String, String?, String) -> ManagedStoreError
    ) throws {
        for property in properties {
            let relationship = entity.relationshipsByName[property.name]
            if !(relationship?.isOptional ?? property.isOptional) && property.defaultValue.isNull && relationship == nil
            {
                throw refuse(
                    entity.name, property.name,
                    "it is new, not optional and has no default, so the stored rows would have no value for it")
            }
        }
    }

    /// Adds `columns` to a hierarchy's `table` in place; with `entity`, also `Z_ENT`, every
    /// stored row that entity's.
    func addColumns(
        _ columns: [AttributeDescription], to table: String, entity: EntityDescription?, on connection: SQLiteConnection
    ) throws {
        for property in columns {
            var sql = "ALTER TABLE \(table) ADD COLUMN \(StoreSchema.columnSQL(property))"
            if !property.defaultValue.isNull { sql += " DEFAULT \(Self.literal(property.defaultValue.sqliteValue))" }
            try connection.execute(sql)
        }
        if let entity {
            try connection.execute(
                "ALTER TABLE \(table) ADD COLUMN Z_ENT TEXT NOT NULL DEFAULT \(entity.entityLiteral)")
            try connection.execute(
                "CREATE INDEX \(SQLiteConnection.quote("\(entity.name)_Z_ENT")) ON \(table) (Z_ENT)")
        }
    }
}
