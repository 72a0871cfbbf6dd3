import Foundation

/// One aggregate of an entity's stored rows, typed by its result: the typed form of
/// ``AggregateRequest``'s aggregates, for ``ManagedObjectContext/aggregate(_:_:)`` and
/// ``ManagedObjectContext/aggregate(_:groupedBy:_:)``.
///
/// ```swift
/// let (first, last, count) = try context.aggregate(FetchRequest<Note>(), .minimum(\.created), .maximum(\.created), .count)
/// // first, last: Date?; count: Int
/// ```
public struct Aggregate<Entity: ManagedObject, Value: AttributeRepresentable>: Sendable {
    enum Kind: Sendable { case count, countDistinct, minimum, maximum, sum, average }
    let kind: Kind
    /// The attribute, as the key path given (nil for `count`).
    nonisolated(unsafe) let keyPath: AnyKeyPath?  // immutable; key paths are immutable values

    /// How many rows.
    public static var count: Aggregate<Entity, Int> { Aggregate<Entity, Int>(kind: .count, keyPath: nil) }

    /// How many different values of an attribute.
    public static func countDistinct<A: AttributeRepresentable>(_ keyPath: KeyPath<Entity, A>) -> Aggregate<Entity, Int>
    {
        Aggregate<Entity, Int>(kind: .countDistinct, keyPath: keyPath)
    }

    /// The least value of an attribute (decimals by value), nil when there are no rows.
    public static func minimum<A: AttributeRepresentable>(_ keyPath: KeyPath<Entity, A>) -> Aggregate<Entity, A?> {
        Aggregate<Entity, A?>(kind: .minimum, keyPath: keyPath)
    }

    /// The greatest value of an attribute (decimals by value), nil when there are no rows.
    public static func maximum<A: AttributeRepresentable>(_ keyPath: KeyPath<Entity, A>) -> Aggregate<Entity, A?> {
        Aggregate<Entity, A?>(kind: .maximum, keyPath: keyPath)
    }

    /// The sum of a numeric attribute, as a double (0 without rows).
    public static func sum<A: AttributeRepresentable>(_ keyPath: KeyPath<Entity, A>) -> Aggregate<Entity, Double> {
        Aggregate<Entity, Double>(kind: .sum, keyPath: keyPath)
    }

    /// The mean of a numeric attribute, as a double, nil when there are no rows.
    public static func average<A: AttributeRepresentable>(_ keyPath: KeyPath<Entity, A>) -> Aggregate<Entity, Double?> {
        Aggregate<Entity, Double?>(kind: .average, keyPath: keyPath)
    }

    /// The untyped aggregate, with the attribute's name resolved in `entity`.
    func untyped(in entity: EntityDescription) throws -> AggregateRequest<Entity>.Aggregate {
        guard let keyPath else { return .count }
        guard let slot = entity.slot(forKeyPath: keyPath), entity.isAttributeSlot(slot) else {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name, reason: "the key path \(keyPath) is not an attribute to aggregate")
        }
        let name = entity.storedProperties[slot].name
        switch kind {
        case .count: return .count
        case .countDistinct: return .countDistinct(name)
        case .minimum: return .min(name)
        case .maximum: return .max(name)
        case .sum: return .sum(name)
        case .average: return .average(name)
        }
    }
}

extension ManagedObjectContext {
    /// The aggregates of the stored rows `request`'s predicate selects, typed: one tuple.
    ///
    /// ```swift
    /// let (first, last) = try context.aggregate(FetchRequest<Note>(), .minimum(\.created), .maximum(\.created))
    /// ```
    ///
    /// As in Core Data, it reads the saved rows: unsaved changes do not count.
    @inlinable
    public func aggregate<T: ManagedObject, each V: AttributeRepresentable>(
        _ request: FetchRequest<T>, _ aggregates: repeat Aggregate<T, each V>
    ) throws -> (repeat each V) {
        var untyped: [AggregateRequest<T>.Aggregate] = []
        for aggregate in repeat each aggregates { untyped.append(try untypedAggregate(aggregate)) }
        var untypedRequest = AggregateRequest<T>(predicate: request.predicate, aggregates: untyped)
        untypedRequest.includesSubentities = request.includesSubentities
        let rows = try self.aggregate(untypedRequest)
        guard let row = rows.first else { throw Self.unreadable(.null, as: "an aggregate row", entity: "\(T.self)") }
        var column = 0
        return (repeat try Self.typedValue(row, &column, as: (each V).self, request: request))
    }

    /// The aggregates of the stored rows `request`'s predicate selects, per value of `groupedBy`
    /// (in its order), typed: one tuple per group, the group's value first.
    ///
    /// ```swift
    /// for (author, count) in try context.aggregate(FetchRequest<Note>(), groupedBy: \.author, .count) { … }
    /// // Only the authors of more than one note (Core Data's havingPredicate):
    /// try context.aggregate(FetchRequest<Note>(), groupedBy: \.author, having: .compare(.count, .greater, .integer(1)), .count)
    /// ```
    @inlinable
    public func aggregate<T: ManagedObject, G: AttributeRepresentable, each V: AttributeRepresentable>(
        _ request: FetchRequest<T>, groupedBy group: KeyPath<T, G>, having: AggregateRequest<T>.Having? = nil,
        _ aggregates: repeat Aggregate<T, each V>
    ) throws -> [(G, repeat each V)] {
        var untyped: [AggregateRequest<T>.Aggregate] = []
        for aggregate in repeat each aggregates { untyped.append(try untypedAggregate(aggregate)) }
        var untypedRequest = AggregateRequest<T>(
            predicate: request.predicate, groupBy: [try attributeName(group, of: T.self)], aggregates: untyped,
            having: having)
        untypedRequest.includesSubentities = request.includesSubentities
        let rows = try self.aggregate(untypedRequest)
        var result: [(G, repeat each V)] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            var column = 0
            let value = try Self.typedValue(row, &column, as: G.self, request: request)
            result.append((value, repeat try Self.typedValue(row, &column, as: (each V).self, request: request)))
        }
        return result
    }

    @usableFromInline
    func untypedAggregate<T: ManagedObject, V>(_ aggregate: Aggregate<T, V>) throws -> AggregateRequest<T>.Aggregate {
        try aggregate.untyped(in: try entity(for: T.self))
    }

    @usableFromInline
    func attributeName<T: ManagedObject>(_ keyPath: AnyKeyPath, of type: T.Type) throws -> String {
        let entity = try entity(for: T.self)
        guard let slot = entity.slot(forKeyPath: keyPath), entity.isAttributeSlot(slot) else {
            throw ManagedStoreError.unsupportedFetch(
                entity: entity.name, reason: "the key path \(keyPath) is not an attribute to group by")
        }
        return entity.storedProperties[slot].name
    }
}
