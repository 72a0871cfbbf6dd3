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
            while try statement.step() {
                rows.append(row(from: statement, entity: query.entity))
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
                    slots.enumerated().map { column, slot in
                        statement.attributeValue(
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

    func row(for id: ManagedObjectID, on connection: SQLiteConnection) throws -> RowSnapshot? {
        let entity = id.entity
        let statement = try connection.statement(entity.selectByKeySQL)
        defer { statement.reset() }
        try statement.bind(id.key, 1)
        guard try statement.step() else { return nil }
        return row(from: statement, entity: entity)
    }

    func row(from statement: SQLiteStatement, entity: EntityDescription) -> RowSnapshot {
        var values: [AttributeValue] = []
        values.reserveCapacity(entity.storedProperties.count)
        for (index, attribute) in entity.storedProperties.enumerated() {
            values.append(
                statement.attributeValue(
                    Int32(index + 2), type: attribute.type,
                    destination: entity.slotDestinations[index], store: persistentStore))
        }
        return RowSnapshot(
            id: ManagedObjectID(entity: entity, store: persistentStore, primaryKey: statement.int64(0)),
            version: statement.int64(1), values: values)
    }
}
