import Foundation

extension SQLiteStore {
    /// One result of a query reduced to its ID and a few attribute values (a fetched results
    /// controller's sort keys): what is kept of a result whose object is not made.
    struct KeyedRow: Sendable {
        let id: ManagedObjectID
        /// The values of the attributes asked for, in the order they were asked for.
        let keys: [AttributeValue]
    }

    /// The ID and the values of the attributes in `slots` of each row `query` selects, in the
    /// query's order, without reading the other columns (in `generation`, when given).
    func fetchKeyedRows(
        _ query: StoreQuery, keys: [SortKey], in generation: QueryGeneration? = nil
    ) throws
        -> [KeyedRow]
    {
        let entity = query.entity
        // Z_PK, then each key's column, or the value it reads through a to-one.
        let compiler = PredicateSQLCompiler(entity: entity)
        let terms = keys.map { key in
            key.through.isEmpty ? entity.quotedColumns[key.slot] : key.sql(in: entity, compiler: compiler)
        }
        let valuesSQL = query.selectSQL(columns: terms)
        precondition(valuesSQL.hasPrefix("SELECT "), "ManagedStore: unexpected SELECT form \(valuesSQL)")
        // With its sub-entities, each row's Z_ENT too, so that each ID names its row's entity.
        let mixed = query.selectsSubentities
        let first: Int32 = mixed ? 2 : 1
        let sql = (mixed ? "SELECT Z_PK, Z_ENT, " : "SELECT Z_PK, ") + valuesSQL.dropFirst("SELECT ".count)
        let decodings = keys.map { $0.decoding(in: entity) }
        return try read(in: generation) { connection in
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            for (index, argument) in query.arguments.enumerated() {
                try statement.bind(argument, Int32(index + 1))
            }
            var rows: [KeyedRow] = []
            while try statement.step() {
                let rowEntity = mixed ? entity.descendant(named: statement.text(1)) ?? entity : entity
                let id = ManagedObjectID(entity: rowEntity, store: persistentStore, primaryKey: statement.int64(0))
                let keys = try decodings.enumerated().map { column, decoding in
                    try statement.attributeValue(
                        Int32(column) + first, type: decoding.type, destination: decoding.destination,
                        store: persistentStore)
                }
                rows.append(KeyedRow(id: id, keys: keys))
            }
            return rows
        }
    }

    /// The rows of `ids` (permanent IDs of `entity` in this store), in no particular order; an
    /// ID whose row is gone is left out. One statement whatever the number of IDs (they travel
    /// as one JSON array), so that the connection's statement cache does not grow with them.
    func fetchRows(
        _ ids: [ManagedObjectID], entity: EntityDescription, in generation: QueryGeneration? = nil
    ) throws -> [RowSnapshot] {
        var query = StoreQuery(entity: entity)
        query.whereClause = "Z_PK IN (SELECT value FROM json_each(?))"
        query.arguments = [.text("[" + ids.map { String($0.key) }.joined(separator: ",") + "]")]
        return try fetch(query, in: generation)
    }
}
