/// Declares a property of a ``ManagedObject`` subclass that is backed by the entity's attribute
/// of the same name, as `@NSManaged` does in Core Data.
///
/// ```swift
/// final class Note: ManagedObject {
///     @Attribute var title: String
///     @Attribute var created: Date
///     @Attribute var body: String?      // an optional attribute
/// }
/// let note = Note(context: context)
/// note.title = "Groceries"
/// ```
///
/// Reading a property of a fault fetches its row; writing one marks the object as updated.
/// Both must happen on the object's context's queue.
@propertyWrapper
public struct Attribute<Value: AttributeRepresentable>: AttributePropertyWrapper, Sendable {
    /// Used once per property and entity, to find the property's name among its class's fields.
    @usableFromInline var tag: Int

    /// A property backed by the attribute named like the property.
    public init() { tag = 0 }

    @usableFromInline static var valueType: any AttributeRepresentable.Type { Value.self }

    /// Not used: an `@Attribute` property reads and writes through its object.
    @available(*, unavailable, message: "@Attribute can only be used on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// The property's value, read from and written to the enclosing object.
    ///
    /// Inlinable, so that each module that declares entities gets it specialized for its own
    /// classes and value types (measured: unspecialized, every access looked up generic metadata).
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Attribute<Value>>
    ) -> Value {
        get {
            let slot = object.entity.slot(forStorage: storageKeyPath, of: object)
            let stored = object.readAttribute(slot)
            guard let value = Value(attributeValue: stored) else {
                object.trapOnUnreadableValue(stored, slot: slot, as: Value.self)
            }
            return value
        }
        set {
            object.writeAttribute(
                newValue.attributeValue, slot: object.entity.slot(forStorage: storageKeyPath, of: object))
        }
    }
}

/// What ManagedStore needs to know of an ``Attribute`` without knowing its value type.
@usableFromInline
protocol AttributePropertyWrapper: TaggedPropertyWrapper {
    static var valueType: any AttributeRepresentable.Type { get }
}

/// A property wrapper whose storage can be marked, so that the property it stores for can be
/// found among its class's fields (see ``EntityDescription/propertyName(of:in:taggedWith:)``).
@usableFromInline
protocol TaggedPropertyWrapper {
    /// A mark set for a moment while the property is looked for; otherwise unused.
    var tag: Int { get set }
}
