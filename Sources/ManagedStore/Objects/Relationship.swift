import Synchronization

/// Declares a property of a ``ManagedObject`` subclass backed by the entity's relationship of
/// the same name (see ``RelationshipDescription``), as `@NSManaged` does in Core Data: an
/// optional object for a to-one relationship, a `Set` for a to-many, an array for an ordered
/// to-many (Core Data's `NSOrderedSet`).
///
/// ```swift
/// final class Book: ManagedObject {
///     @Attribute var title: String
///     @Relationship var author: Author?
/// }
/// final class Author: ManagedObject {
///     @Attribute var name: String
///     @Relationship var books: Set<Book>
/// }
/// book.author = tolstoy          // tolstoy.books now contains book
/// tolstoy.books.remove(book)     // book.author is nil again
/// ```
///
/// An ordered relationship's array is in its members' order; setting it sets that order. As an
/// ordered set, it holds each object once: an array with an object twice keeps its first place
/// (as `NSOrderedSet(array:)` does). Appending through the to-one side (`chapter.book = book`)
/// puts the object last, as in Core Data.
///
/// Setting either side keeps the inverse in step. A to-one destination that is not loaded yet
/// comes as a fault; a to-many relationship is read from the store (and the context's unsaved
/// changes) each time it is asked for. Touch these properties on the object's context's queue.
@propertyWrapper
public struct Relationship<Value: RelationshipRepresentable>: RelationshipPropertyWrapper, Sendable {
    /// Used once per property and entity, to find the property's name among its class's fields.
    @usableFromInline var tag: Int

    /// A property backed by the relationship named like the property.
    public init() { tag = 0 }

    /// Not used: a `@Relationship` property reads and writes through its object.
    @available(*, unavailable, message: "@Relationship can only be used on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// The property's value, read from and written to the enclosing object.
    ///
    /// Inlinable, as ``Attribute``'s, so that it is specialized for each class and value type
    /// (an importer sets one per row).
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Relationship<Value>>
    ) -> Value {
        get {
            let relationship = object.entity.relationship(
                forStorage: storageKeyPath, of: object, isToMany: Value.isToMany, isOrdered: Value.isOrdered)
            if Value.isToMany { return Value(relationshipObjects: object.relatedObjects(relationship)) }
            return Value(relationshipObject: object.destination(relationship))
        }
        set {
            let relationship = object.entity.relationship(
                forStorage: storageKeyPath, of: object, isToMany: Value.isToMany, isOrdered: Value.isOrdered)
            if Value.isToMany {
                object.setMembers(newValue.relationshipObjects, relationship)
            } else {
                object.setDestination(newValue.relationshipObject, relationship)
            }
        }
    }
}

/// A Swift type a ``Relationship`` property can have: an optional managed object (to-one), a
/// set of them (to-many), or an array of them (ordered to-many).
public protocol RelationshipRepresentable {
    /// True for sets and arrays.
    static var isToMany: Bool { get }
    /// True for arrays: the type of an ordered relationship.
    static var isOrdered: Bool { get }
    /// The value holding `objects` (for a to-one, the first or none).
    init(relationshipObjects: [ManagedObject])
    /// The objects this value holds.
    var relationshipObjects: [ManagedObject] { get }
    /// For a to-one: the value holding `object`.
    init(relationshipObject object: ManagedObject?)
    /// For a to-one: the object this value holds.
    var relationshipObject: ManagedObject? { get }
}

extension RelationshipRepresentable {
    public static var isOrdered: Bool { false }
    public init(relationshipObject object: ManagedObject?) { self.init(relationshipObjects: object.map { [$0] } ?? []) }
    public var relationshipObject: ManagedObject? { relationshipObjects.first }
}

extension Optional: RelationshipRepresentable where Wrapped: ManagedObject {
    public static var isToMany: Bool { false }
    public init(relationshipObjects: [ManagedObject]) {
        guard let first = relationshipObjects.first else { self = .none; return }
        guard let typed = first as? Wrapped else {
            preconditionFailure("ManagedStore: the related object \(first.objectID) is not a \(Wrapped.self)")
        }
        self = .some(typed)
    }
    public var relationshipObjects: [ManagedObject] { self.map { [$0] } ?? [] }
    public init(relationshipObject object: ManagedObject?) {
        guard let object else { self = .none; return }
        guard let typed = object as? Wrapped else {
            preconditionFailure("ManagedStore: the related object \(object.objectID) is not a \(Wrapped.self)")
        }
        self = .some(typed)
    }
    public var relationshipObject: ManagedObject? { self }
}

extension Set: RelationshipRepresentable where Element: ManagedObject {
    public static var isToMany: Bool { true }
    public init(relationshipObjects: [ManagedObject]) {
        self.init(
            relationshipObjects.map { object in
                guard let typed = object as? Element else {
                    preconditionFailure("ManagedStore: the related object \(object.objectID) is not a \(Element.self)")
                }
                return typed
            })
    }
    public var relationshipObjects: [ManagedObject] { Array(self) }
}

extension Array: RelationshipRepresentable where Element: ManagedObject {
    public static var isToMany: Bool { true }
    public static var isOrdered: Bool { true }
    public init(relationshipObjects: [ManagedObject]) {
        self = relationshipObjects.map { object in
            guard let typed = object as? Element else {
                preconditionFailure("ManagedStore: the related object \(object.objectID) is not a \(Element.self)")
            }
            return typed
        }
    }
    public var relationshipObjects: [ManagedObject] { self }
}

/// What ManagedStore needs to know of a ``Relationship`` without knowing its value type.
@usableFromInline
protocol RelationshipPropertyWrapper: TaggedPropertyWrapper {}

extension EntityDescription {
    /// The relationship of a `@Relationship` property, given the key path of its wrapper
    /// storage. The fast path reads the entity's published table (the one attribute slots use,
    /// where a relationship's index `i` is kept as `-1 - i`), without a lock; the first access
    /// finds the property's name among the class's fields.
    @usableFromInline
    func relationship<Object: ManagedObject, Wrapper: RelationshipPropertyWrapper>(
        forStorage storage: ReferenceWritableKeyPath<Object, Wrapper>, of object: Object, isToMany: Bool,
        isOrdered: Bool = false
    ) -> ResolvedRelationship {
        let key = ObjectIdentifier(storage)
        if let found = storageSlotTable.load(ordering: .acquiring)._withUnsafeGuaranteedRef({ $0.slot(for: key) }),
            found < 0
        {
            return resolvedRelationships[-1 - found]
        }
        let tag = Int.min + 11
        let saved = object[keyPath: storage].tag
        object[keyPath: storage].tag = tag
        defer { object[keyPath: storage].tag = saved }
        let found = Self.propertyName(of: Wrapper.self, in: object, taggedWith: tag)
        guard let found, let index = resolvedRelationships.firstIndex(where: { $0.name == found }) else {
            preconditionFailure(
                "ManagedStore: \(type(of: object)).\(found ?? "?") is a @Relationship, but entity \(name) has no relationship of that name"
            )
        }
        let relationship = resolvedRelationships[index]
        precondition(
            relationship.isToMany == isToMany,
            "ManagedStore: \(type(of: object)).\(found) is a \(isToMany ? "set" : "single object"), but the relationship is \(relationship.isToMany ? "to-many" : "to-one")"
        )
        precondition(
            relationship.description.isOrdered == isOrdered,
            "ManagedStore: \(type(of: object)).\(found) is \(isOrdered ? "an array" : "a set"), but the relationship is \(isOrdered ? "not ordered (declare it with isOrdered: true, or make the property a Set)" : "ordered (make the property an array)")"
        )
        publish(storage, slot: -1 - index)
        return relationship
    }
}
