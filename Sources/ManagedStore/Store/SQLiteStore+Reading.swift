extension SQLiteStore {
    // MARK: Reading rows

    /// The rows a query selects.
    func fetch(_ query: StoreQuery, in generation: QueryGeneration? = nil) throws -> [RowSnapshot] {
        try read(in: generation) { connection in
            let statement = try connection.statement(query.selectSQL())
            defer { statement.reset() }
            for (index, argument) in query.arguments.enumerated() {
                try statement.bind(argument, Int32(index + 1))
            }
            var rows: [RowSnapshot] = []
            if query.selectsSubentities {
                while try statement.step() { rows.append(try row(fromSubtreeOf: query.entity, statement)) }
                return rows
            }
            while try statement.step() {
                rows.append(try row(from: statement, entity: query.entity))
            }
            return rows
        }
    }

    /// The values of the attributes in `slots` of each row a query selects.
    func fetchValues(
        _ query: StoreQuery, slots: [Int], in generation: QueryGeneration? = nil
    ) throws -> [[AttributeValue]] {
        try read(in: generation) { connection in
            let statement = try connection.statement(query.selectSQL(slots: slots))
            defer { statement.reset() }
            for (index, argument) in query.arguments.enumerated() {
                try statement.bind(argument, Int32(index + 1))
            }
            let entity = query.entity
            var rows: [[AttributeValue]] = []
            while try statement.step() {
                rows.append(
                    try slots.enumerated().map { column, slot in
                        try statement.attributeValue(
                            Int32(column), type: entity.storedProperties[slot].type,
                            destination: entity.slotDestinations[slot], store: persistentStore)
                    })
            }
            return rows
        }
    }

    /// How many rows a query selects, within its limit and offset.
    func count(_ query: StoreQuery, in generation: QueryGeneration? = nil) throws -> Int {
        try read(in: generation) { connection in
            let statement = try connection.statement(query.countSQL())
            defer { statement.reset() }
            for (index, argument) in query.arguments.enumerated() {
                try statement.bind(argument, Int32(index + 1))
            }
            guard try statement.step() else { return 0 }
            return Int(statement.int64(0))
        }
    }

    /// The row of a permanent object ID, or nil when there is none.
    func row(for id: ManagedObjectID, in generation: QueryGeneration? = nil) throws -> RowSnapshot? {
        guard id.persistentStore === persistentStore else { return nil }
        return try read(in: generation) { connection in try row(for: id, on: connection) }
    }

    /// The entity whose row `id`'s key is in its hierarchy's table: `id.entity` or one of its
    /// sub-entities; nil when there is no such row.
    func entity(ofRow id: ManagedObjectID, in generation: QueryGeneration? = nil) throws -> EntityDescription? {
        guard id.persistentStore === persistentStore, id.entity.isInHierarchy else { return id.entity }
        return try read(in: generation) { connection in
            let statement = try connection.statement("SELECT Z_ENT FROM \(id.entity.quotedTable) WHERE Z_PK = ?")
            defer { statement.reset() }
            try statement.bind(id.key, 1)
            guard try statement.step() else { return nil }
            return id.entity.descendant(named: statement.text(0))
        }
    }

    func row(for id: ManagedObjectID, on connection: SQLiteConnection) throws -> RowSnapshot? {
        let entity = id.entity
        if let subtree = entity.subtree {
            // Perhaps a sub-entity's row: read with their columns, as the entity it names.
            let statement = try connection.statement(
                "SELECT \(subtree.columns) FROM \(entity.quotedTable) WHERE Z_PK = ?")
            defer { statement.reset() }
            try statement.bind(id.key, 1)
            guard try statement.step() else { return nil }
            return try row(fromSubtreeOf: entity, statement)
        }
        let statement = try connection.statement(entity.selectByKeySQL)
        defer { statement.reset() }
        try statement.bind(id.key, 1)
        guard try statement.step() else { return nil }
        return try row(from: statement, entity: entity)
    }

    /// A row of `entity`'s table selected with its sub-entities' columns (see
    /// `EntityDescription.subtree`): the object of the entity its `Z_ENT` names.
    func row(fromSubtreeOf entity: EntityDescription, _ statement: SQLiteStatement) throws -> RowSnapshot {
        let subtree = entity.subtree!
        let (concrete, columns) = subtree.entities[statement.text(2)] ?? subtree.entities[entity.name]!
        var values: [AttributeValue] = []
        values.reserveCapacity(columns.count)
        for (slot, column) in columns.enumerated() {
            values.append(
                try statement.attributeValue(
                    column, type: concrete.storedProperties[slot].type, destination: concrete.slotDestinations[slot],
                    store: persistentStore))
        }
        return RowSnapshot(
            id: ManagedObjectID(entity: concrete, store: persistentStore, primaryKey: statement.int64(0)),
            version: statement.int64(1), values: values)
    }

    func row(from statement: SQLiteStatement, entity: EntityDescription) throws -> RowSnapshot {
        var values: [AttributeValue] = []
        values.reserveCapacity(entity.storedProperties.count)
        for (index, attribute) in entity.storedProperties.enumerated() {
            values.append(
                try statement.attributeValue(
                    Int32(index + 2), type: attribute.type,
                    destination: entity.slotDestinations[index], store: persistentStore))
        }
        return RowSnapshot(
            id: ManagedObjectID(entity: entity, store: persistentStore, primaryKey: statement.int64(0)),
            version: statement.int64(1), values: values)
    }
}
