import Foundation

// Each supported node of Foundation's predicate trees, translated for the compiler.

extension PredicateExpressions.Variable: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term { .object }
}

extension PredicateExpressions.KeyPath: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        guard case .object = try compiler.term(of: root) else {
            throw compiler.unsupported("a key path of type \(type(of: keyPath)) applied to something other than the fetched object")
        }
        guard let slot = compiler.entity.slot(forKeyPath: keyPath) else {
            throw compiler.unsupported("the key path of type \(type(of: keyPath)) is not an attribute of \(compiler.entity.name)")
        }
        return .column(slot)
    }
}

extension PredicateExpressions.Value: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        if let value = value as? any AttributeRepresentable { return .constant(value.attributeValue) }
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
        guard case .constants(let values) = try compiler.term(of: sequence) else {
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

extension PredicateExpressions.SequenceStartsWith: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        let baseTerm = try compiler.term(of: base)
        guard case .column(let slot) = baseTerm, compiler.entity.storedProperties[slot].type == .string,
              case .constant(.string(let prefixText)) = try compiler.term(of: prefix)
        else {
            throw compiler.unsupported("starts(with:) other than a string attribute starting with a string value")
        }
        let column = compiler.column(slot)
        return .condition(sql: "substr(\(column), 1, ?) = ?",
                          arguments: [.integer(Int64(prefixText.unicodeScalars.count)), .text(prefixText)])
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
        return .expression(sql: "COALESCE(\(leftSQL), \(rightSQL))", arguments: leftArguments + rightArguments, type: type)
    }
}

extension PredicateExpressions.ForcedUnwrap: SQLConvertibleExpression {
    func sqlTerm(_ compiler: PredicateSQLCompiler) throws -> PredicateSQLCompiler.Term {
        try compiler.term(of: inner)
    }
}
