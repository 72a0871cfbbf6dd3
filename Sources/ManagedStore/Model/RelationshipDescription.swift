/// A relationship of an entity to objects of another (or the same) entity, as in Core Data:
/// to-one or to-many, with an inverse kept in step on both sides, and a rule for what a
/// deletion does to the related objects.
///
/// ```swift
/// let author = EntityDescription(name: "Author", managedObjectClass: Author.self,
///     attributes: [AttributeDescription(name: "name", type: .string)],
///     relationships: [.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)])
/// let book = EntityDescription(name: "Book", managedObjectClass: Book.self,
///     attributes: [AttributeDescription(name: "title", type: .string)],
///     relationships: [.toOne("author", destination: "Author", inverse: "books")])
/// ```
///
/// A to-one relationship is a column of its entity's table (the destination's key); a to-many
/// relationship whose inverse is to-one is that inverse seen from the other side. A to-many
/// whose inverse is to-many too is many-to-many, kept in a join table (see `JoinTable`):
///
/// ```swift
/// let student = EntityDescription(name: "Student", managedObjectClass: Student.self, attributes: [],
///     relationships: [.toMany("courses", destination: "Course", inverse: "students")])
/// let course = EntityDescription(name: "Course", managedObjectClass: Course.self, attributes: [],
///     relationships: [.toMany("students", destination: "Student", inverse: "courses")])
/// ```
///
/// A to-many relationship may be ordered (Core Data's `isOrdered`): its members keep the order
/// they are given in, and its property is an array (`@Relationship var chapters: [Chapter]`),
/// as Core Data's is an `NSOrderedSet`. Each member's position is a column of the member's
/// table beside its to-one key (`Z_FOK_book`), as in Core Data:
///
/// ```swift
/// .toMany("chapters", destination: "Chapter", inverse: "book", isOrdered: true)
/// ```
///
/// Every to-many relationship needs an inverse. A many-to-many relationship may be its own
/// inverse (`.toMany("friends", destination: "Person", inverse: "friends")`): it is symmetric,
/// each link seen from both objects; for a relation with a direction, declare two, such as
/// `followers` and `following`.
public struct RelationshipDescription: Sendable, Hashable, CustomStringConvertible {
    /// What deleting an object does to the objects this relationship relates it to.
    public enum DeleteRule: String, Sendable, Hashable {
        /// Nothing: the related objects keep pointing at the deleted one (you fix them up).
        case noAction
        /// The related objects' inverse is cleared (the default).
        case nullify
        /// The related objects are deleted too.
        case cascade
        /// The save fails while any object is related (naming the object and relationship).
        case deny
    }

    /// The relationship's name: the name of its ``Relationship`` property.
    public let name: String
    /// The name of the entity of the related objects.
    public let destinationEntityName: String
    /// The name of the inverse relationship on the destination entity (required for to-many).
    public let inverseName: String?
    /// True for a to-many relationship (a set of objects), false for a to-one.
    public let isToMany: Bool
    /// For a to-one: whether it may be nil at a save. For a to-many: whether it may be empty.
    public let isOptional: Bool
    /// For a to-many: whether its members keep an order (its property is then an array).
    public let isOrdered: Bool
    /// For a to-many: the fewest objects a save accepts (0: no minimum).
    public let minCount: Int
    /// For a to-many: the most objects a save accepts (0: no maximum).
    public let maxCount: Int
    /// What deleting the source object does to the destination objects.
    public let deleteRule: DeleteRule
    /// The relationship's name in the previous model version, when it was renamed (Core
    /// Data's `renamingIdentifier`), so that a migration keeps its values.
    public let renamingIdentifier: String?

    /// A relationship; see ``toOne(_:destination:inverse:isOptional:deleteRule:renamingIdentifier:)``
    /// and ``toMany(_:destination:inverse:isOptional:isOrdered:minCount:maxCount:deleteRule:renamingIdentifier:)``.
    public init(
        name: String, destinationEntityName: String, inverseName: String?, isToMany: Bool,
        isOptional: Bool = true, isOrdered: Bool = false, minCount: Int = 0, maxCount: Int = 0,
        deleteRule: DeleteRule = .nullify, renamingIdentifier: String? = nil
    ) {
        precondition(
            !name.isEmpty && !name.hasPrefix("Z_"), "ManagedStore: '\(name)' is not a usable relationship name")
        precondition(
            !isToMany || inverseName != nil, "ManagedStore: to-many relationship '\(name)' needs an inverse")
        precondition(
            minCount >= 0 && maxCount >= 0 && (maxCount == 0 || minCount <= maxCount),
            "ManagedStore: relationship '\(name)' has counts \(minCount)...\(maxCount)")
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.isOptional = isOptional
        self.isOrdered = isToMany && isOrdered
        self.minCount = isToMany ? minCount : 0
        self.maxCount = isToMany ? maxCount : 0
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
    }

    /// A to-one relationship named `name` to an object of `destination`.
    public static func toOne(
        _ name: String, destination: String, inverse: String?, isOptional: Bool = true,
        deleteRule: DeleteRule = .nullify, renamingIdentifier: String? = nil
    ) -> RelationshipDescription {
        RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: false,
            isOptional: isOptional, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier)
    }

    /// A to-many relationship named `name` to objects of `destination`, whose `inverse` points
    /// back: a to-one (one-to-many), or a to-many (many-to-many, kept in a join table).
    /// `isOrdered` keeps its members in order (a one-to-many only).
    public static func toMany(
        _ name: String, destination: String, inverse: String, isOptional: Bool = true, isOrdered: Bool = false,
        minCount: Int = 0, maxCount: Int = 0, deleteRule: DeleteRule = .nullify,
        renamingIdentifier: String? = nil
    ) -> RelationshipDescription {
        RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: true,
            isOptional: isOptional, isOrdered: isOrdered, minCount: minCount, maxCount: maxCount,
            deleteRule: deleteRule, renamingIdentifier: renamingIdentifier)
    }

    public var description: String {
        "\(name) \(isToMany ? "->>" : "->") \(destinationEntityName)" + (isOrdered ? " (ordered)" : "")
            + (inverseName.map { " (inverse \($0))" } ?? "")
    }

    /// The fact a store records of this relationship of `entity` (see ``StoredEntity``).
    /// A many-to-many relationship names its inverse (`many-to-many with Tag.notes`), so that
    /// a migration knows the store's join tables from these lines alone.
    func schemaLine(entity: String, manyToManyInverse: String? = nil) -> String {
        var facts = [isToMany ? "to-many" : "to-one"]
        if isOptional { facts.append("optional") }
        if isOrdered { facts.append("ordered") }
        if isToMany && (minCount > 0 || maxCount > 0) { facts.append("count \(minCount)...\(maxCount)") }
        if let manyToManyInverse { facts.append("many-to-many with \(destinationEntityName).\(manyToManyInverse)") }
        return
            "relationship \(entity).\(name) \(isToMany ? "->>" : "->") \(destinationEntityName) (\(facts.joined(separator: ", ")))"
    }
}
