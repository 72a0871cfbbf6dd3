import Foundation

/// Turns a Foundation `Predicate` and `SortDescriptor`s over a managed object class into SQL for
/// the entity's table. What it cannot translate it refuses, naming the expression: it never
/// falls back to scanning the table in memory.
struct PredicateSQLCompiler {
    let entity: EntityDescription
    /// What the variables of nested expressions stand for (the object a to-one relationship
    /// leads to, inside `$0.author?.name`); any other variable is the fetched object.
    var bindings: [PredicateExpressions.VariableID: Term] = [:]

    init(entity: EntityDescription) {
        self.entity = entity
    }

    /// A predicate in the making: a column, a value, an SQL value expression, or a condition.
    enum Term {
        /// The object the predicate is evaluated on.
        case object
        case column(Int)
        /// A to-many relationship of the fetched object.
        case toMany(ResolvedRelationship)
        /// The object the to-one relationship at this slot of the fetched object leads to.
        case destination(ResolvedRelationship)
        /// A member of the to-many relationship, inside `contains { … }` (its row is `z`).
        case member(ResolvedRelationship)
        case constant(AttributeValue)
        case constants([AttributeValue])
        case expression(sql: String, arguments: [SQLiteValue], type: AttributeType)
        case condition(sql: String, arguments: [SQLiteValue])
    }

    /// The WHERE clause and its arguments for `predicate`.
    func whereClause<T>(for predicate: Predicate<T>) throws -> (String, [SQLiteValue]) {
        try condition(term(of: predicate.expression))
    }

    /// The ORDER BY clause for `descriptors`, ending with the primary key so that ties come out
    /// in insertion order; also the slots, for sorting in memory the same way.
    func orderBy<T>(_ descriptors: [SortDescriptor<T>]) throws -> (String, [SortKey]) {
        var parts: [String] = []
        var keys: [SortKey] = []
        for descriptor in descriptors {
            guard let keyPath = descriptor.keyPath, let slot = entity.slot(forKeyPath: keyPath) else {
                if let name = descriptor.keyPath.flatMap(entity.transientName(forKeyPath:)) {
                    throw unsupported(
                        "a sort descriptor on the transient attribute '\(name)', which the store does not hold; sort the fetched objects in Swift"
                    )
                }
                throw unsupported("a sort descriptor whose key path is not an attribute of \(entity.name)")
            }
            try checkReadable(slot, of: entity)
            // A key path through a to-one (`\.author?.name`) reads the relationship's key: a
            // probe that follows it tells which attribute of the destination is read. The
            // relationship itself (or its object ID) is refused, never sorted by row keys.
            var through: [SortKey.Hop] = []
            if entity.storedProperties[slot].type == .objectID {
                guard let found = entity.attributeThroughToOnes(at: slot, keyPath: keyPath) else {
                    let name = entity.storedProperties[slot].name
                    throw unsupported(
                        "a sort descriptor through the to-one relationship '\(name)' of \(entity.name) that does not end at an attribute (the relationship itself, or a computed property); sort by an attribute of the destination (\\.\(name)?.name), as Core Data sorts by 'author.name'"
                    )
                }
                through = found
            }
            let key = SortKey(slot: slot, ascending: descriptor.order == .forward, through: through)
            parts.append("\(key.sql(in: entity, compiler: self)) \(key.ascending ? "ASC" : "DESC")")
            keys.append(key)
        }
        parts.append("Z_PK ASC")
        return (parts.joined(separator: ", "), keys)
    }

    // MARK: Terms

    func term(of expression: Any) throws -> Term {
        guard let convertible = expression as? any SQLConvertibleExpression else {
            throw unsupported("the predicate expression \(Self.name(of: expression)) has no SQL translation")
        }
        return try convertible.sqlTerm(self)
    }

    func condition(_ term: Term) throws -> (String, [SQLiteValue]) {
        switch term {
        case .condition(let sql, let arguments):
            return (sql, arguments)
        case .column(let slot) where entity.storedProperties[slot].type == .boolean:
            return ("\(column(slot)) = 1", [])
        case .constant(.boolean(let value)):
            return (value ? "1" : "0", [])
        default:
            throw unsupported("a predicate that is not a condition (\(term))")
        }
    }

    /// `lhs op rhs`, where `op` is one of `=`, `<>`, `<`, `<=`, `>`, `>=`.
    func comparison(_ lhs: Term, _ op: String, _ rhs: Term) throws -> Term {
        let ordering = op != "=" && op != "<>"
        let type = attributeType(of: lhs) ?? attributeType(of: rhs)
        if !ordering {
            if case .constant(.null) = rhs { return try nullTest(lhs, negated: op == "<>") }
            if case .constant(.null) = lhs { return try nullTest(rhs, negated: op == "<>") }
        }
        let (left, leftArguments) = try operand(lhs, type: type, ordering: ordering)
        let (right, rightArguments) = try operand(rhs, type: type, ordering: ordering)
        var sqlOperator = op
        if !ordering && (isNullable(lhs) || isNullable(rhs)) {
            sqlOperator = op == "=" ? "IS" : "IS NOT"  // Swift's nil == nil, in SQL
        }
        return .condition(sql: "\(left) \(sqlOperator) \(right)", arguments: leftArguments + rightArguments)
    }

    func nullTest(_ term: Term, negated: Bool) throws -> Term {
        let (sql, arguments) = try operand(term, type: attributeType(of: term), ordering: false)
        return .condition(sql: "\(sql) IS \(negated ? "NOT " : "")NULL", arguments: arguments)
    }

    func operand(_ term: Term, type: AttributeType?, ordering: Bool) throws -> (String, [SQLiteValue]) {
        switch term {
        case .column(let slot):
            return (column(slot, ordering: ordering), [])
        case .constant(let value):
            return ("?", [try bindable(value, for: type, ordering: ordering)])
        case .expression(let sql, let arguments, let type):
            return (type == .decimal && ordering ? "CAST(\(sql) AS REAL)" : sql, arguments)
        case .condition(let sql, let arguments):
            return ("(\(sql))", arguments)
        case .object, .constants, .toMany, .destination, .member:
            throw unsupported("a comparison with \(term)")
        }
    }

    /// A value bound for comparison with an attribute of `type`, as the store holds that type.
    func bindable(_ value: AttributeValue, for type: AttributeType?, ordering: Bool) throws -> SQLiteValue {
        switch (value, type) {
        case (.decimal(let decimal), .decimal?):
            return ordering ? .real(Self.double(decimal)) : value.sqliteValue
        case (.integer(let integer), .decimal?):
            return ordering ? .real(Double(integer)) : AttributeValue.decimal(Decimal(integer)).sqliteValue
        case (.double(let double), .decimal?):
            return ordering
                ? .real(double) : AttributeValue.decimal(Decimal(string: String(double)) ?? Decimal(double)).sqliteValue
        case (.integer(let integer), .double?):
            return .real(Double(integer))
        case (.decimal(let decimal), .double?):
            return .real(Self.double(decimal))
        default:
            return value.sqliteValue
        }
    }

    /// The fetched object's table, for references from inside a subquery.
    var qualifiedTable: String { entity.quotedTable }

    /// `(SELECT …)` of the attribute at `slot` of the object `relationship` leads to.
    func destinationColumn(_ relationship: ResolvedRelationship, slot: Int) -> Term {
        let destination = relationship.destination
        guard let own = relationship.slot else { return .constant(.null) }
        let sql =
            "(SELECT z.\(destination.quotedColumns[slot]) FROM \(destination.quotedTable) AS z WHERE z.Z_PK = \(qualifiedTable).\(entity.quotedColumns[own]))"
        return .expression(sql: sql, arguments: [], type: destination.storedProperties[slot].type)
    }

    /// `(SELECT COUNT(*) …)` of the members of the to-many `relationship`.
    func memberCount(_ relationship: ResolvedRelationship) throws -> Term {
        if let join = relationship.join {
            let destination = relationship.destination
            return .expression(
                sql:
                    "(SELECT COUNT(*) FROM \(join.quotedName) AS j JOIN \(destination.quotedTable) AS z ON z.Z_PK = j.\(join.otherColumn) WHERE j.\(join.ownColumn) = \(qualifiedTable).Z_PK)",
                arguments: [], type: .integer64)
        }
        guard let inverse = relationship.inverseSlot else {
            throw unsupported("the count of \(relationship.name), which has no to-one inverse")
        }
        let destination = relationship.destination
        return .expression(
            sql:
                "(SELECT COUNT(*) FROM \(destination.quotedTable) AS z WHERE z.\(destination.quotedColumns[inverse]) = \(qualifiedTable).Z_PK)",
            arguments: [], type: .integer64)
    }

    /// `EXISTS (…)`: a member of the to-many `relationship` passes `test` (compiled with the
    /// member's row as `z`).
    func membership(_ relationship: ResolvedRelationship, test: Term) throws -> Term {
        if let join = relationship.join {
            let destination = relationship.destination
            let (condition, arguments) = try self.condition(test)
            return .condition(
                sql:
                    "EXISTS (SELECT 1 FROM \(join.quotedName) AS j JOIN \(destination.quotedTable) AS z ON z.Z_PK = j.\(join.otherColumn) WHERE j.\(join.ownColumn) = \(qualifiedTable).Z_PK AND (\(condition)))",
                arguments: arguments)
        }
        guard let inverse = relationship.inverseSlot else {
            throw unsupported("contains() on \(relationship.name), which has no to-one inverse")
        }
        let destination = relationship.destination
        let (condition, arguments) = try self.condition(test)
        return .condition(
            sql:
                "EXISTS (SELECT 1 FROM \(destination.quotedTable) AS z WHERE z.\(destination.quotedColumns[inverse]) = \(qualifiedTable).Z_PK AND (\(condition)))",
            arguments: arguments)
    }

    /// The fetched object's column at `slot`, qualified by its table, so that it means the
    /// same inside a subquery over another table (`contains { … }`, `$0.author?.name`).
    func column(_ slot: Int, ordering: Bool = false) -> String {
        let name = "\(qualifiedTable).\(entity.quotedColumns[slot])"
        return ordering && entity.storedProperties[slot].type == .decimal ? "CAST(\(name) AS REAL)" : name
    }

    func attributeType(of term: Term) -> AttributeType? {
        switch term {
        case .column(let slot): return entity.storedProperties[slot].type
        case .expression(_, _, let type): return type
        default: return nil
        }
    }

    func isNullable(_ term: Term) -> Bool {
        switch term {
        case .column(let slot): return entity.storedProperties[slot].isOptional
        // A value read across a relationship is NULL when the relationship is nil (or the
        // member's attribute is): compared as Swift compares optionals, with IS / IS NOT.
        case .expression(let sql, _, _): return sql.hasPrefix("(SELECT z.") || sql.hasPrefix("z.")
        case .constant(let value): return value.isNull
        default: return false
        }
    }

    /// Refuses an attribute with external storage: its column may hold a file's reference,
    /// which SQL cannot compare as the value (Core Data's predicates cannot use one either).
    func checkReadable(_ slot: Int, of entity: EntityDescription) throws {
        guard slot < entity.storedProperties.count, entity.storedProperties[slot].allowsExternalBinaryDataStorage else {
            return
        }
        throw unsupported(
            "'\(entity.storedProperties[slot].name)' of \(entity.name) allows external storage: a predicate, sort descriptor or aggregate cannot read its values in the store; test them in Swift"
        )
    }

    func unsupported(_ reason: String) -> ManagedStoreError {
        .unsupportedFetch(entity: entity.name, reason: reason)
    }

    static func name(of expression: Any) -> String {
        String(describing: type(of: expression))
    }

    static func double(_ decimal: Decimal) -> Double {
        Double(decimal.description) ?? NSDecimalNumber(decimal: decimal).doubleValue
    }
}

/// A `PredicateExpressions` node that the compiler can translate.
protocol SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term
}
