/// A SELECT over one entity's table, compiled from a fetch request.
struct StoreQuery: Sendable {
    var entity: EntityDescription
    /// The WHERE clause without the keyword, or nil for every row.
    var whereClause: String?
    var arguments: [SQLiteValue] = []
    /// The ORDER BY clause without the keywords.
    var orderBy: String?
    var limit = 0
    var offset = 0
    /// Whether the rows of the entity's sub-entities are selected too (Core Data's
    /// `includesSubentities`, true by default).
    var includesSubentities = true

    /// The WHERE condition: ``whereClause``, and in a hierarchy's table the entities' `Z_ENT`.
    var rowCondition: String? {
        switch (whereClause, entity.entityCondition(includingSubentities: includesSubentities)) {
        case (let clause?, let condition?): "\(condition) AND (\(clause))"
        case (let clause?, nil), (nil, let clause?): clause
        case (nil, nil): nil
        }
    }

    /// Whether the rows selected may be of several entities, each row then naming its own.
    var selectsSubentities: Bool { includesSubentities && entity.subtree != nil }

    /// Selects whole rows: the entity's columns, or with its sub-entities, `Z_ENT` and theirs.
    func selectSQL() -> String {
        let columns = selectsSubentities ? entity.subtree!.columns : entity.selectColumns
        return "SELECT \(columns) FROM \(entity.quotedTable)" + clauses(ordered: true)
    }

    /// Selects only the attributes in `slots`, in that order (with no slots, the constant 1,
    /// so that the rows can still be counted).
    func selectSQL(slots: [Int]) -> String {
        selectSQL(columns: slots.map { entity.quotedColumns[$0] })
    }

    /// Selects the SQL terms `columns` (columns of the entity's table, or subqueries over it),
    /// in that order; with none, the constant 1.
    func selectSQL(columns: [String]) -> String {
        let list = columns.isEmpty ? "1" : columns.joined(separator: ", ")
        return "SELECT \(list) FROM \(entity.quotedTable)" + clauses(ordered: true)
    }

    /// Counts the rows; with a limit or an offset, only as many as they allow (so that a count
    /// limited to 1 stops at the first row instead of counting every match).
    func countSQL() -> String {
        if limit > 0 || offset > 0 {
            var inner = "SELECT 1 FROM \(entity.quotedTable)" + clauses(ordered: false)
            inner += " LIMIT \(limit > 0 ? limit : -1)" + (offset > 0 ? " OFFSET \(offset)" : "")
            return "SELECT COUNT(*) FROM (\(inner))"
        }
        return "SELECT COUNT(*) FROM \(entity.quotedTable)" + clauses(ordered: false)
    }

    private func clauses(ordered: Bool) -> String {
        var sql = ""
        if let condition = rowCondition { sql += " WHERE \(condition)" }
        guard ordered else { return sql }
        if let orderBy { sql += " ORDER BY \(orderBy)" }
        if limit > 0 || offset > 0 { sql += " LIMIT \(limit > 0 ? limit : -1)" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return sql
    }
}
