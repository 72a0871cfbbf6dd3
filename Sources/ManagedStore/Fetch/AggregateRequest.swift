import Foundation

/// A fetch of aggregate values over an entity's stored rows, optionally grouped by attributes:
/// Core Data's dictionary result type with `propertiesToGroupBy` and expression descriptions.
///
/// ```swift
/// let request = AggregateRequest<Note>(groupBy: ["author"], aggregates: [.count, .max("created")])
/// for row in try context.aggregate(request) {   // [author, count, latest created]
///     print(row[0], row[1], row[2])
/// }
/// ```
///
/// It runs as one SQL query over the saved rows; as in Core Data, unsaved changes do not count.
/// Minimum and maximum keep the attribute's type (decimals compare by value); sums and averages
/// of numbers are doubles.
public struct AggregateRequest<Entity: ManagedObject>: Sendable {
    /// An aggregate function.
    public enum Aggregate: Sendable, Hashable {
        /// How many rows.
        case count
        /// How many different values of an attribute.
        case countDistinct(String)
        /// The least value of an attribute.
        case min(String)
        /// The greatest value of an attribute.
        case max(String)
        /// The sum of a numeric attribute.
        case sum(String)
        /// The mean of a numeric attribute.
        case average(String)
    }

    /// A condition on a group's aggregates, which the groups given must meet (Core Data's
    /// `havingPredicate`, as SQL's `HAVING`).
    ///
    /// ```swift
    /// .and(.compare(.count, .greater, .integer(1)), .compare(.sum("pages"), .greaterOrEqual, .integer(1_000)))
    /// ```
    ///
    /// A count compares as an integer, a sum or an average as a double, a minimum or maximum as
    /// its attribute's values (a decimal's as a double, as a predicate orders them); an
    /// aggregate that is nil (a minimum of no values) meets no comparison.
    public indirect enum Having: Sendable, Hashable {
        /// The aggregate compared with a value.
        case compare(Aggregate, Comparison, AttributeValue)
        /// Both conditions.
        case and(Having, Having)
        /// Either condition.
        case or(Having, Having)
        /// Not the condition.
        case not(Having)
    }

    /// How ``Having/compare(_:_:_:)`` compares.
    public enum Comparison: String, Sendable, Hashable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// Which rows (nil: all).
    public var predicate: Predicate<Entity>?
    /// The attributes to group by; each row starts with their values.
    public var groupBy: [String]
    /// The aggregates, after the group values in each row.
    public var aggregates: [Aggregate]
    /// Which groups (nil: all); only with ``groupBy``.
    public var having: Having?
    /// Whether the rows of the entity's sub-entities count too (true by default, as a fetch's
    /// ``FetchRequest/includesSubentities``).
    public var includesSubentities = true

    /// A request for `aggregates` of the rows `predicate` selects, grouped by `groupBy`, of the
    /// groups that meet `having`.
    public init(
        predicate: Predicate<Entity>? = nil, groupBy: [String] = [], aggregates: [Aggregate], having: Having? = nil
    ) {
        self.predicate = predicate
        self.groupBy = groupBy
        self.aggregates = aggregates
        self.having = having
    }
}

extension ManagedObjectContext {
    /// The rows of an aggregate request: the group values, then the aggregates, per group (in
    /// group order); one row without groups.
    public func aggregate<T: ManagedObject>(_ request: AggregateRequest<T>) throws -> [[AttributeValue]] {
        checkQueue()
        let entity = try entity(for: T.self)
        func slot(_ name: String) throws -> Int {
            guard let slot = entity.storedSlotByName[name], entity.isAttributeSlot(slot) else {
                let what =
                    entity.attribute(named: name)?.isTransient == true
                    ? "'\(name)' is a transient attribute, which the store does not hold"
                    : "no attribute '\(name)' to aggregate or group by (a relationship: use an attribute of its destination's)"
                throw ManagedStoreError.unsupportedFetch(entity: entity.name, reason: what)
            }
            try PredicateSQLCompiler(entity: entity).checkReadable(slot, of: entity)
            return slot
        }
        let compiler = PredicateSQLCompiler(entity: entity)
        var columns: [String] = []
        var resultTypes: [AttributeType?] = []  // nil: an integer count; otherwise decoded as this type
        var isDouble: [Bool] = []
        for name in request.groupBy {
            let slot = try slot(name)
            columns.append(compiler.column(slot))
            resultTypes.append(entity.storedProperties[slot].type)
            isDouble.append(false)
        }
        /// An aggregate's SQL, and how its value reads: nil for an integer count, else the
        /// attribute type it decodes as (and whether a decimal comes back as a double).
        func expression(_ aggregate: AggregateRequest<T>.Aggregate) throws -> (String, AttributeType?, Bool) {
            switch aggregate {
            case .count:
                return ("COUNT(*)", nil, false)
            case .countDistinct(let name):
                return ("COUNT(DISTINCT \(compiler.column(try slot(name))))", nil, false)
            case .min(let name), .max(let name):
                let slot = try slot(name)
                let function = if case .min = aggregate { "MIN" } else { "MAX" }
                let type = entity.storedProperties[slot].type
                return ("\(function)(\(compiler.column(slot, ordering: true)))", type, type == .decimal)
            case .sum(let name), .average(let name):
                let function = if case .sum = aggregate { "TOTAL" } else { "AVG" }
                return ("\(function)(\(compiler.column(try slot(name), ordering: true)))", .double, false)
            }
        }
        for aggregate in request.aggregates {
            let (sql, type, double) = try expression(aggregate)
            columns.append(sql)
            resultTypes.append(type)
            isDouble.append(double)
        }
        var havingArguments: [SQLiteValue] = []
        func havingSQL(_ condition: AggregateRequest<T>.Having) throws -> String {
            switch condition {
            case .compare(let aggregate, let comparison, let value):
                let (sql, type, _) = try expression(aggregate)
                guard !value.isNull else {
                    throw ManagedStoreError.unsupportedFetch(
                        entity: entity.name, reason: "a having comparison with nil, which no group meets")
                }
                havingArguments.append(try compiler.bindable(value, for: type ?? .integer64, ordering: true))
                return "\(sql) \(comparison.rawValue) ?"
            case .and(let left, let right): return "(\(try havingSQL(left)) AND \(try havingSQL(right)))"
            case .or(let left, let right): return "(\(try havingSQL(left)) OR \(try havingSQL(right)))"
            case .not(let inner): return "NOT (\(try havingSQL(inner)))"
            }
        }
        // In a hierarchy's table, the rows of the entity and its sub-entities.
        var condition = entity.entityCondition(includingSubentities: request.includesSubentities)
        var bound: [SQLiteValue] = []
        if let predicate = request.predicate {
            let (sql, values) = try compiler.whereClause(for: predicate)
            (condition, bound) = ((condition.map { "\($0) AND " } ?? "") + "(\(sql))", values)
        }
        let whereClause = condition.map { " WHERE \($0)" } ?? ""
        var sql: String
        var arguments: [SQLiteValue] = []
        let scansTogether = request.aggregates.contains {
            switch $0 {
            case .sum, .average: true;
            default: false
            }
        }
        let hasDistinct = request.aggregates.contains {
            if case .countDistinct = $0 { true } else { false }
        }
        if request.groupBy.isEmpty && !scansTogether && (request.aggregates.count > 1 || hasDistinct) {
            // SQLite answers a lone MIN, MAX or COUNT(*) from an index in a few steps, and a
            // DISTINCT from an index on the column without a temporary b-tree; together in one
            // SELECT they become one scan of the table that feeds a temporary b-tree per COUNT
            // (DISTINCT …). Each in its own subquery: `ecbrates status`'s query went from 79 to 22 ms.
            var subqueries: [String] = []
            for (aggregate, column) in zip(request.aggregates, columns) {
                if case .countDistinct(let name) = aggregate {
                    let expression = compiler.column(try slot(name))
                    let filter = " WHERE " + (condition.map { "\($0) AND " } ?? "") + "\(expression) IS NOT NULL"
                    subqueries.append(
                        "(SELECT COUNT(*) FROM (SELECT DISTINCT \(expression) FROM \(entity.quotedTable)\(filter)))")
                } else {
                    subqueries.append("(SELECT \(column) FROM \(entity.quotedTable)\(whereClause))")
                }
                arguments += bound
            }
            sql = "SELECT " + subqueries.joined(separator: ", ")
        } else {
            sql = "SELECT \(columns.joined(separator: ", ")) FROM \(entity.quotedTable)\(whereClause)"
            arguments = bound
        }
        if let having = request.having, request.groupBy.isEmpty {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name, reason: "a having condition without groupBy (\(having)): it applies to groups")
        }
        if !request.groupBy.isEmpty {
            let groups = try request.groupBy.map { compiler.column(try slot($0)) }.joined(separator: ", ")
            sql += " GROUP BY \(groups)"
            if let having = request.having {
                sql += " HAVING \(try havingSQL(having))"
                arguments += havingArguments
            }
            sql += " ORDER BY \(groups)"
        }
        let query = sql
        return try store(for: entity).read(in: queryGeneration) { connection in
            let statement = try connection.statement(query)
            defer { statement.reset() }
            for (index, argument) in arguments.enumerated() { try statement.bind(argument, Int32(index + 1)) }
            var rows: [[AttributeValue]] = []
            while try statement.step() {
                var row: [AttributeValue] = []
                for (index, type) in resultTypes.enumerated() {
                    let column = Int32(index)
                    if statement.isNull(column) {
                        row.append(.null)
                    } else if let type {
                        // A decimal's minimum or maximum comes back as a double: its shortest text
                        // is the stored value for up to 15 significant digits.
                        try row.append(
                            isDouble[index]
                                ? .decimal(
                                    DecimalText.parse(String(statement.double(column)))
                                        ?? Decimal(statement.double(column)))
                                : statement.attributeValue(column, type: type))
                    } else {
                        row.append(.integer(statement.int64(column)))
                    }
                }
                rows.append(row)
            }
            return rows
        }
    }
}
