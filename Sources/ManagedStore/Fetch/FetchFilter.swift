import Foundation

/// A fetch request's predicate with the class it is typed by erased, so that a request of IDs,
/// dictionaries or a count can hold one typed by its entity's class (a class, so that a request
/// holding one stays small to copy): it compiles to SQL for an
/// entity and evaluates on an object (for the context's unsaved changes).
final class FetchFilter: Sendable {
    /// The `Predicate<Entity>`.
    let predicate: any Sendable
    /// The class the predicate is typed by.
    let subject: ManagedObject.Type
    /// Whether the predicate can be evaluated on objects of the class given.
    let accepts: @Sendable (ManagedObject.Type) -> Bool
    let compile: @Sendable (PredicateSQLCompiler) throws -> (String, [SQLiteValue])
    let evaluate: @Sendable (ManagedObject) throws -> Bool

    init<Entity: ManagedObject>(_ predicate: Predicate<Entity>) {
        self.predicate = predicate
        self.subject = Entity.self
        self.accepts = { $0 is Entity.Type }
        self.compile = { try $0.whereClause(for: predicate) }
        self.evaluate = { try predicate.evaluate($0 as! Entity) }
    }
}

/// A fetch request's sort descriptors with the class they are typed by erased (see
/// ``FetchFilter``).
final class FetchOrdering: Sendable {
    /// The `[SortDescriptor<Entity>]`.
    let descriptors: any Sendable
    let subject: ManagedObject.Type
    let accepts: @Sendable (ManagedObject.Type) -> Bool
    let compile: @Sendable (PredicateSQLCompiler) throws -> (String, [SortKey])

    /// nil for no descriptors.
    init?<Entity: ManagedObject>(_ descriptors: [SortDescriptor<Entity>]) {
        guard !descriptors.isEmpty else { return nil }
        self.descriptors = descriptors
        self.subject = Entity.self
        self.accepts = { $0 is Entity.Type }
        self.compile = { try $0.orderBy(descriptors) }
    }
}
