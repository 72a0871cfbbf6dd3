import Foundation

// Each supported node of Foundation's predicate trees, translated for the compiler.

extension PredicateExpressions.Variable: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        compiler.bindings[key] ?? .object
    }
}

extension PredicateExpressions.KeyPath: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        switch try compiler.term(of: root) {
        case .object:
            if let slot = compiler.entity.slot(forKeyPath: keyPath) {
                try compiler.checkReadable(slot, of: compiler.entity)
                return .column(slot)
            }
            if let relationship = compiler.entity.relationship(forKeyPath: keyPath) {
                // A to-one is its key's column (compared with an object or nil); a to-many can
                // be counted or asked whether it contains an object.
                if let slot = relationship.slot { return .column(slot) }
                return .toMany(relationship)
            }
            if let name = compiler.entity.transientName(forKeyPath: keyPath) {
                throw compiler.unsupported(
                    "'\(name)' is a transient attribute, which the store does not hold; filter the fetched objects in Swift"
                )
            }
            throw compiler.unsupported(
                "the key path of type \(type(of: keyPath)) is not an attribute or relationship of \(compiler.entity.name)"
            )
        case .toMany(let relationship):
            // `pets.isEmpty`: Core Data's `pets.@count == 0`.
            if Self.isEmptyOfASet(keyPath),
                case .expression(let count, let arguments, _) = try compiler.memberCount(relationship)
            {
                return .condition(sql: "\(count) = 0", arguments: arguments)
            }
            guard type(of: keyPath).valueType == Int.self else {
                throw compiler.unsupported(
                    "\(keyPath) of to-many relationship \(relationship.name): only its count, isEmpty and contains() are supported"
                )
            }
            return try compiler.memberCount(relationship)
        case .destination(let relationship):
            if Self.readsObjectID(keyPath), let slot = relationship.slot { return .column(slot) }
            guard let slot = relationship.destination.slot(forKeyPath: keyPath),
                relationship.destination.isAttributeSlot(slot)
            else {
                throw compiler.unsupported(
                    "the key path of type \(type(of: keyPath)) is not an attribute of \(relationship.destination.name) (across \(relationship.name); one relationship deep is supported)"
                )
            }
            try compiler.checkReadable(slot, of: relationship.destination)
            return compiler.destinationColumn(relationship, slot: slot)
        case .member(let relationship):
            let destination = relationship.destination
            if Self.readsObjectID(keyPath) { return .expression(sql: "z.Z_PK", arguments: [], type: .objectID) }
            guard let slot = destination.slot(forKeyPath: keyPath), destination.isAttributeSlot(slot) else {
                throw compiler.unsupported(
                    "the key path of type \(type(of: keyPath)) is not an attribute of \(destination.name) (a member of \(relationship.name))"
                )
            }
            try compiler.checkReadable(slot, of: destination)
            let column = "z.\(destination.quotedColumns[slot])"
            return .expression(sql: column, arguments: [], type: destination.storedProperties[slot].type)
        default:
            throw compiler.unsupported(
                "a key path of type \(type(of: keyPath)) applied to something other than the fetched object or a relationship"
            )
        }
    }
}

extension PredicateExpressions.KeyPath {
    /// Whether `keyPath` is a set's `isEmpty`: the one `Bool` a predicate can read of a set
    /// (key paths name no property in their description, so it is told by its value on an empty
    /// set, which only `isEmpty` answers true there).
    static func isEmptyOfASet(_ keyPath: AnyKeyPath) -> Bool {
        guard type(of: keyPath).valueType == Bool.self,
            let root = type(of: keyPath).rootType as? any SetAlgebra.Type
        else { return false }
        return valueOnEmpty(root, keyPath)
    }

    private static func valueOnEmpty<S: SetAlgebra>(_: S.Type, _ keyPath: AnyKeyPath) -> Bool {
        (S()[keyPath: keyPath] as? Bool) == true
    }

    /// Whether the key path reads a managed object's `objectID` (the only `ManagedObjectID`
    /// property a managed object has).
    static func readsObjectID(_ keyPath: AnyKeyPath) -> Bool {
        type(of: keyPath).valueType == ManagedObjectID.self
    }
}

extension PredicateExpressions.OptionalFlatMap: SQLConvertibleExpression {
    /// `$0.author?.name`: the transform reads the object the to-one relationship leads to.
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        guard case .column(let slot) = try compiler.term(of: wrapped),
            let relationship = compiler.entity.resolvedRelationships.first(where: { $0.slot == slot })
        else {
            throw compiler.unsupported("?. on something other than a to-one relationship of \(compiler.entity.name)")
        }
        var inner = compiler
        inner.bindings[variable.key] = .destination(relationship)
        return try inner.term(of: transform)
    }
}

extension PredicateExpressions.Value: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        if let id = Self.objectID(in: value) {
            // An unsaved object has no row: no stored key points at it (bound as -1, which no
            // key is); the context's own pending objects are matched in memory.
            return .constant(id.isTemporaryID ? .integer(-1) : .object(id))
        }
        if let value = value as? any AttributeRepresentable { return .constant(value.attributeValue) }
        if case Optional<Any>.none = value as Any { return .constant(.null) }
        if let sequence = value as? any Sequence {
            var values: [AttributeValue] = []
            for element in sequence {
                guard let value = element as? any AttributeRepresentable else {
                    throw compiler.unsupported("a sequence of \(type(of: element)), which is not an attribute type")
                }
                values.append(value.attributeValue)
            }
            return .constants(values)
        }
        throw compiler.unsupported("a value of type \(Output.self), which is not an attribute type")
    }
}

extension PredicateExpressions.Value {
    /// The object ID `value` is, or wraps in an optional (a cast unwraps optionals; no `Mirror`,
    /// whose protocol questions cost a scan of the binary's conformances at a process's first
    /// predicate: see ``EntityDescription/propertyName(of:in:taggedWith:)``).
    static func objectID(in value: Any) -> ManagedObjectID? {
        value as? ManagedObjectID
    }
}

extension PredicateExpressions.NilLiteral: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term { .constant(.null) }
}

extension PredicateExpressions.Equal: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        try compiler.comparison(compiler.term(of: lhs), "=", compiler.term(of: rhs))
    }
}

extension PredicateExpressions.NotEqual: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        try compiler.comparison(compiler.term(of: lhs), "<>", compiler.term(of: rhs))
    }
}

extension PredicateExpressions.Comparison: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let sqlOperator: String
        switch op {
        case .lessThan: sqlOperator = "<"
        case .lessThanOrEqual: sqlOperator = "<="
        case .greaterThan: sqlOperator = ">"
        case .greaterThanOrEqual: sqlOperator = ">="
        @unknown default: throw compiler.unsupported("the comparison operator \(op)")
        }
        return try compiler.comparison(compiler.term(of: lhs), sqlOperator, compiler.term(of: rhs))
    }
}

extension PredicateExpressions.Conjunction: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let (left, leftArguments) = try compiler.condition(compiler.term(of: lhs))
        let (right, rightArguments) = try compiler.condition(compiler.term(of: rhs))
        return .condition(sql: "(\(left)) AND (\(right))", arguments: leftArguments + rightArguments)
    }
}

extension PredicateExpressions.Disjunction: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let (left, leftArguments) = try compiler.condition(compiler.term(of: lhs))
        let (right, rightArguments) = try compiler.condition(compiler.term(of: rhs))
        return .condition(sql: "(\(left)) OR (\(right))", arguments: leftArguments + rightArguments)
    }
}

extension PredicateExpressions.Negation: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let (inner, arguments) = try compiler.condition(compiler.term(of: wrapped))
        return .condition(sql: "NOT (\(inner))", arguments: arguments)
    }
}

extension PredicateExpressions.SequenceContains: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let sequenceTerm = try compiler.term(of: sequence)
        if case .toMany(let relationship) = sequenceTerm {
            throw compiler.unsupported(
                "contains(_:) on \(relationship.name): a predicate cannot capture an object; use contains { $0.objectID == id }"
            )
        }
        guard case .constants(let values) = sequenceTerm else {
            throw compiler.unsupported("contains() on something other than a list of values")
        }
        let element = try compiler.term(of: element)
        let type = compiler.attributeType(of: element)
        let (column, columnArguments) = try compiler.operand(element, type: type, ordering: false)
        let present = values.filter { !$0.isNull }
        var parts: [String] = []
        var arguments = columnArguments
        if !present.isEmpty {
            parts.append("\(column) IN (\(Array(repeating: "?", count: present.count).joined(separator: ", ")))")
            arguments += try present.map { try compiler.bindable($0, for: type, ordering: false) }
        }
        if present.count < values.count {
            parts.append("\(column) IS NULL")
            arguments += columnArguments
        }
        return .condition(sql: parts.isEmpty ? "0" : parts.joined(separator: " OR "), arguments: arguments)
    }
}

extension PredicateExpressions.SequenceContainsWhere: SQLConvertibleExpression {
    /// `$0.books.contains { $0.title == "Emma" }`: whether a member passes the test, in the store.
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        guard case .toMany(let relationship) = try compiler.term(of: sequence) else {
            throw compiler.unsupported("contains(where:) on something other than a to-many relationship")
        }
        var inner = compiler
        inner.bindings[variable.key] = .member(relationship)
        return try compiler.membership(relationship, test: inner.term(of: test))
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let baseTerm = try compiler.term(of: base)
        guard compiler.attributeType(of: baseTerm) == .string,
            case .constant(.string(let prefixText)) = try compiler.term(of: prefix)
        else {
            throw compiler.unsupported("starts(with:) other than a string attribute starting with a string value")
        }
        let (column, arguments) = try compiler.operand(baseTerm, type: .string, ordering: false)
        return .condition(
            sql: "substr(\(column), 1, ?) = ?",
            arguments: arguments + [.integer(Int64(prefixText.unicodeScalars.count)), .text(prefixText)])
    }
}

extension PredicateExpressions.CollectionContainsCollection: SQLConvertibleExpression {
    /// `$0.title.contains("Peace")`: Core Data's CONTAINS, in Swift's sense of it (Character
    /// by Character, case and diacritics count), through `managedstore_contains`.
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let baseTerm = try compiler.term(of: base)
        guard compiler.attributeType(of: baseTerm) == .string,
            case .constant(.string(let part)) = try compiler.term(of: other)
        else {
            throw compiler.unsupported("contains(_:) other than a string attribute containing a string value")
        }
        let (column, arguments) = try compiler.operand(baseTerm, type: .string, ordering: false)
        return .condition(sql: "managedstore_contains(\(column), ?)", arguments: arguments + [.text(part)])
    }
}

extension PredicateExpressions.NilCoalesce: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let left = try compiler.term(of: lhs)
        let right = try compiler.term(of: rhs)
        guard let type = compiler.attributeType(of: left) ?? compiler.attributeType(of: right) else {
            throw compiler.unsupported("?? between two values")
        }
        let (leftSQL, leftArguments) = try compiler.operand(left, type: type, ordering: false)
        let (rightSQL, rightArguments) = try compiler.operand(right, type: type, ordering: false)
        return .expression(
            sql: "COALESCE(\(leftSQL), \(rightSQL))", arguments: leftArguments + rightArguments, type: type)
    }
}

extension PredicateExpressions.ForcedUnwrap: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        try compiler.term(of: inner)
    }
}
