import Foundation

/// The base class of the objects a context manages. Subclass it, declare ``Attribute``
/// properties, and describe the subclass with an ``EntityDescription``.
///
/// ```swift
/// final class Note: ManagedObject {
///     @Attribute var title: String
///     @Attribute var created: Date
/// }
/// try await context.perform {
///     let note = Note(context: context)
///     note.title = "Groceries"
///     note.created = .now
///     try context.save()
/// }
/// ```
///
/// A managed object belongs to its context and is touched only on that context's queue; it is
/// not `Sendable`, so Swift rejects passing one to another queue. Pass its ``objectID``.
open class ManagedObject: Hashable, CustomStringConvertible {
    /// The object's entity.
    public let entity: EntityDescription
    /// The object's ID: temporary until the object is saved.
    public internal(set) var objectID: ManagedObjectID
    /// The context the object belongs to, or nil once it is deleted and saved, or never
    /// inserted, or once the context is gone.
    ///
    /// Not owning, as Core Data's: an object does not keep its context alive (it holds the
    /// context's ``ContextLink``, which references the context weakly).
    public internal(set) var managedObjectContext: ManagedObjectContext? {
        get { link?.context }
        set { link = newValue?.link }
    }
    /// The link to the context the object belongs to (see ``ContextLink``).
    var link: ContextLink?

    // All state below is confined to the context's queue, like the object itself.

    /// Current attribute values (empty while a fault).
    var values: [AttributeValue]
    /// The transient attributes' values (their slots follow the stored ones'); never stored.
    var transientValues: [AttributeValue]
    /// The values as last saved, fetched or merged (the parent's values for a child context);
    /// empty for an object that was never saved.
    var committedValues: [AttributeValue] = []
    /// The row version (`Z_OPT`) these values were read at, for optimistic locking.
    var version: Int64 = 0
    var isFaultState = false {
        didSet { hasCachedRow = false }
    }
    /// Set for a fault whose values (`values`, `committedValues`, `version`) a fetch read
    /// (Core Data's row cache, with `returnsObjectsAsFaults`): firing it reads no store. Cleared
    /// whenever the object becomes, or stops being, a fault.
    var hasCachedRow = false
    /// When the cached row was read (`DispatchTime` nanoseconds), for the context's
    /// `stalenessInterval`.
    var cachedRowTime: UInt64 = 0
    /// The store's `writeCount` before the cached row was read (`UInt64.max` in a child
    /// context, whose faults always ask the parent): a save since means the row is read again.
    var cachedRowStamp: UInt64 = 0
    /// The values before the first change of the current event (since the context last posted
    /// objectsDidChange), for ``changedValuesForCurrentEvent()``; nil when unchanged since.
    var eventValues: [AttributeValue]?
    /// The transient values before the first change of the current event (for undo).
    var eventTransientValues: [AttributeValue]?
    var isInsertedState = false
    var isDeletedState = false
    /// Set once an objectsDidChange has listed the object as inserted: from then on, a change to
    /// it (still unsaved) is listed as an update, and its deletion as a deletion, as in Core Data.
    var insertionAnnounced = false
    /// Orders inserted objects, so that rows are written in insertion order.
    var insertionSequence = 0
    /// Set for the probe objects that resolve key paths; records the slots read.
    var isProbe = false
    var probeReads: [Int] = []
    /// The to-many relationships read through a probe.
    var probeRelationships: [String] = []
    /// For a probe that follows to-ones (sorting through one): the destination probe it gave.
    var probeDestination: ManagedObject?

    /// Makes an object of `entity` and inserts it into `context`, if one is given.
    ///
    /// Subclasses that add stored properties must give them initial values, so that this
    /// initializer (which the stack uses for fetched objects too) is inherited.
    ///
    /// The context is borrowed, not taken: every context is weakly referenced (by its
    /// ``ContextLink``), so each retain of it goes through its side table, and an importer makes
    /// an object per rate.
    public required init(entity: EntityDescription, insertInto context: borrowing ManagedObjectContext?) {
        self.entity = entity
        self.values = entity.defaultValues
        self.transientValues = entity.transientDefaults
        self.objectID = ManagedObjectID.makeTemporary(for: entity)
        switch context {
        case .some(let context): context.insert(self)
        case .none: break
        }
    }

    /// Makes an object of this class's entity, inserted into `context` (borrowed, as by
    /// ``init(entity:insertInto:)``).
    ///
    /// The entity is the one the context's model gives for this class.
    public convenience init(context: borrowing ManagedObjectContext) {
        self.init(entity: context.entityForInsertion(of: Self.self), insertInto: copy context)
    }

    // MARK: State

    /// True when the object is inserted in its context and not yet saved.
    public var isInserted: Bool { checkAccess(); return isInsertedState }
    /// True when the object is deleted in its context and the deletion is not yet saved, or
    /// when its row was deleted by another context whose save this context merged.
    public var isDeleted: Bool { checkAccess(); return isDeletedState }
    /// True when the object is a placeholder whose values are not loaded yet.
    public var isFault: Bool { checkAccess(); return isFaultState }
    /// True when the object was changed since its context last saved it, as in Core Data: an
    /// attribute set back to its saved value leaves the object updated until the save (or a
    /// rollback, or a refresh without merging). ``hasPersistentChangedValues`` compares values.
    public var isUpdated: Bool {
        checkAccess()
        return !isInsertedState && !isDeletedState && isTouched
    }
    /// True when the object is inserted, updated or deleted and not yet saved: `isInserted ||
    /// isDeleted || isUpdated`, as Core Data defines it.
    public var hasChanges: Bool {
        checkAccess()
        return isInsertedState || isDeletedState || (!isFaultState && isTouched)
    }
    /// True when an attribute's value differs from the one last saved, fetched or merged (an
    /// inserted object: always). Unlike ``isUpdated``, setting a value back undoes it.
    public var hasPersistentChangedValues: Bool {
        checkAccess()
        return isInsertedState || hasValueChanges
    }

    /// Whether the object is among its context's updated objects (written to since the save).
    var isTouched: Bool {
        guard let context = managedObjectContext else { return false }
        return context.updated[ObjectIdentifier(self)] != nil
    }

    var hasValueChanges: Bool {
        !isFaultState && !isInsertedState && values != committedValues
    }

    /// The persistent properties changed since the object was last saved, fetched or merged,
    /// with their new values (Core Data: "the keys and new values of persistent properties with
    /// changes since the last fetching or saving"): attributes, to-ones (`.object`), and
    /// to-manys whose members this context changed (`.objects`, the members now: a member's
    /// to-one set to it or away, a many-to-many link, a member deleted), both sides of each
    /// change. For an inserted object: every one that has a value. A to-many's change is found
    /// from the context's changes, without firing a fault; its members are then read by ID.
    public func changedValues() -> [String: AttributeValue] {
        checkAccess()
        var changed: [String: AttributeValue] = [:]
        guard !isFaultState || managedObjectContext != nil else { return changed }
        if !isFaultState {
            // Not the members' positions (Z_FOK_), which are the ordered relationship's.
            for (slot, attribute) in entity.storedProperties.enumerated() where !attribute.name.hasPrefix("Z_") {
                if isInsertedState || committedValues.isEmpty {
                    if !values[slot].isNull { changed[attribute.name] = values[slot] }
                } else if values[slot] != committedValues[slot] {
                    changed[attribute.name] = values[slot]
                }
            }
        }
        guard let context = managedObjectContext else { return changed }
        for relationship in entity.resolvedRelationships where relationship.isToMany {
            if let members = readMembers({ try context.changedMemberIDs(of: self, relationship) }, relationship) {
                changed[relationship.name] = .objects(members)
            }
        }
        return changed
    }

    /// `read`'s members, trapping (as reading the relationship would) when the store cannot be read.
    private func readMembers(
        _ read: () throws -> Set<ManagedObjectID>?, _ relationship: ResolvedRelationship
    ) -> Set<ManagedObjectID>? {
        do {
            return try read()
        } catch {
            preconditionFailure(
                "ManagedStore: could not read relationship '\(relationship.name)' of \(objectID): \(error)")
        }
    }

    /// The persistent properties changed since the context last posted
    /// ``ManagedObjectContext/objectsDidChangeNotification``, with their *old* values (Core
    /// Data's `changedValuesForCurrentEvent()`: "the keys and old values of persistent
    /// properties that have changed since the last posting of
    /// NSManagedObjectContextObjectsDidChange"). An observer of that notification reads here
    /// what the event changed; once posted, the event is over and this is empty again. (For an
    /// object inserted in the current event, empty: it had no values before.)
    ///
    /// A to-many the event changed is there too, with its members before the event (`.objects`):
    /// old values, as for the attributes (Apple's page leaves open which; ManagedStore gives the
    /// old ones throughout, so that an observer sees what each change replaced).
    public func changedValuesForCurrentEvent() -> [String: AttributeValue] {
        checkAccess()
        var changed: [String: AttributeValue] = [:]
        if let old = eventValues, !isFaultState {
            for (slot, property) in entity.storedProperties.enumerated()
            where old[slot] != values[slot] && !property.name.hasPrefix("Z_") {
                changed[property.name] = old[slot]
            }
        }
        guard let context = managedObjectContext, !isInsertedState || insertionAnnounced else { return changed }
        for relationship in entity.resolvedRelationships where relationship.isToMany {
            if let members = readMembers({ try context.memberIDsBeforeEvent(of: self, relationship) }, relationship) {
                changed[relationship.name] = .objects(members)
            }
        }
        return changed
    }

    /// The values of `keys` (every persistent property when nil: attributes and relationships)
    /// as last saved, fetched or merged. A to-many's value is its members then (`.objects`),
    /// read by ID.
    public func committedValues(forKeys keys: [String]? = nil) -> [String: AttributeValue] {
        checkAccess()
        if isFaultState { fireFault() }
        var result: [String: AttributeValue] = [:]
        guard !committedValues.isEmpty else { return result }
        let toManys = entity.resolvedRelationships.filter(\.isToMany)
        let stored = entity.storedProperties.map(\.name).filter { !$0.hasPrefix("Z_") }
        for name in keys ?? (stored + toManys.map(\.name)) {
            if let slot = entity.storedSlotByName[name] {
                result[name] = committedValues[slot]
            } else if let relationship = toManys.first(where: { $0.name == name }), let context = managedObjectContext {
                result[name] = .objects(
                    readMembers({ try context.committedMemberIDs(of: self, relationship) }, relationship) ?? [])
            }
        }
        return result
    }

    // MARK: Life-cycle hooks

    /// Called once when the object is first inserted into a context; override to set up
    /// values (call `super`).
    open func awakeFromInsert() {}
    /// Called when the object's values are loaded from the store or a parent context.
    open func awakeFromFetch() {}
    /// Called on each changed object just before its context saves.
    open func willSave() {}
    /// Called on each object a save wrote, after the save: inserted, updated and deleted ones
    /// (as Core Data's: a save is a commit, of deletions as of updates).
    open func didSave() {}
    /// Called once when the object is deleted, before its relationships' delete rules are
    /// applied (Core Data's `prepareForDeletion()`: "an opportunity to add code into the life
    /// cycle of the managed object before deleting it … such as custom propagation before
    /// relationships are torn down"). Its relationships still hold their objects here; an
    /// object deleted by a cascade is told too. Call `super`.
    open func prepareForDeletion() {}
    /// Called before the object becomes a fault (``ManagedObjectContext/refresh(_:mergeChanges:)``
    /// with `false`), while its values are still there: the companion of ``awakeFromFetch()``.
    open func willTurnIntoFault() {}
    /// Called once the object is a fault, to drop what it kept beside its attributes.
    open func didTurnIntoFault() {}

    // MARK: Validation (Core Data's; see ManagedObject+Validation.swift)

    /// Checks the object before a save inserts it: by default each attribute's value through
    /// ``validateValue(_:forKey:)`` and the relationships' optionality and counts, throwing
    /// ``ManagedStoreError/validationFailed(_:)`` with every failure. Override to check what
    /// spans properties; call `super` (as in Core Data, not calling it skips the model's checks).
    open func validateForInsert() throws { try validateProperties() }
    /// Checks the object before a save writes its changes; as ``validateForInsert()``.
    open func validateForUpdate() throws { try validateProperties() }
    /// Checks the object before a save deletes it: by default, that no `.deny` relationship
    /// still holds an object. Override to add checks; call `super`.
    open func validateForDelete() throws { try validateDeletion() }
    /// Checks `value` for the property `key` as a save would (its optionality and the model's
    /// ``ValidationRule``s), without setting it; a save calls it for each attribute. Override
    /// to check one key your way, and call `super` for the others.
    open func validateValue(_ value: AttributeValue, forKey key: String) throws {
        try validateModelRules(value, forKey: key)
    }

    // MARK: Attribute storage

    @usableFromInline
    final func readAttribute(_ slot: Int) -> AttributeValue {
        checkAccess()
        if isFaultState { fireFault() }
        if isProbe { probeReads.append(slot) }
        if slot >= entity.storedProperties.count { return transientValues[slot - entity.storedProperties.count] }
        return values[slot]
    }

    @usableFromInline
    final func writeAttribute(_ value: AttributeValue, slot: Int) {
        checkAccess()
        if !entity.derivedSlots.isEmpty && entity.derivedSlots.contains(slot) {
            preconditionFailure(
                "ManagedStore: \(entity.name).\(entity.storedProperties[slot].name) is a derived attribute: the store computes it when the object is saved, so it cannot be set"
            )
        }
        if slot >= entity.storedProperties.count {
            writeTransient(value, at: slot - entity.storedProperties.count)
            return
        }
        if isInsertedState {
            // Nothing to compare with: an inserted object has no committed values. (Nor are its
            // values kept for the event before it is announced: the import path inserts so.)
            if insertionAnnounced, let context = managedObjectContext {
                if eventValues == nil { eventValues = values }
                values[slot] = value
                context.pendingUpdated[ObjectIdentifier(self)] = self
            } else {
                values[slot] = value
            }
            return
        }
        if isFaultState { fireFault() }
        guard values[slot] != value else { return }
        if eventValues == nil { eventValues = values }
        values[slot] = value
        if !isInsertedState, !isDeletedState, let context = managedObjectContext {
            context.noteUpdated(self)
        }
    }

    /// Sets a transient attribute: a change of the object, which no save writes.
    private final func writeTransient(_ value: AttributeValue, at index: Int) {
        if isFaultState { fireFault() }
        guard transientValues[index] != value else { return }
        if isInsertedState {
            // As writeAttribute: an inserted object announced already changes in this event.
            if insertionAnnounced, let context = managedObjectContext {
                if eventTransientValues == nil { eventTransientValues = transientValues }
                context.pendingUpdated[ObjectIdentifier(self)] = self
            }
            transientValues[index] = value
            return
        }
        if eventTransientValues == nil { eventTransientValues = transientValues }
        transientValues[index] = value
        if !isDeletedState, let context = managedObjectContext { context.noteUpdated(self) }
    }

    /// Traps when MANAGEDSTORE_CONCURRENCY_DEBUG=1 and this is not the context's queue.
    @inline(__always)
    final func checkAccess() {
        if ConcurrencyDebug.isEnabled, let context = managedObjectContext, !context.isOnQueue {
            fatalError(
                "ManagedStore concurrency violation: \(entity.name) \(objectID) of context \(context) was touched on \(ConcurrencyDebug.currentThreadDescription), outside that context's queue. Use the context's perform or performAndWait."
            )
        }
    }

    final func fireFault() {
        guard let context = managedObjectContext else {
            preconditionFailure(
                "ManagedStore: \(objectID) is a fault with no context (its context was reset or it was deleted)")
        }
        context.fulfillFault(self)
    }

    @usableFromInline
    func trapOnUnreadableValue<Value>(_ stored: AttributeValue, slot: Int, as type: Value.Type) -> Never {
        let name = entity.storedProperties[slot].name
        if isProbe {
            preconditionFailure(
                "ManagedStore: a predicate or sort descriptor uses '\(name)' of \(entity.name), a non-optional \(entity.storedProperties[slot].type) attribute, which it cannot compare; make the attribute optional to compare it whole"
            )
        }
        if stored.isNull {
            preconditionFailure(
                "ManagedStore: attribute '\(name)' of \(entity.name) \(objectID) is nil, but its property is the non-optional \(Value.self); set it first or give the attribute a default"
            )
        }
        preconditionFailure(
            "ManagedStore: attribute '\(name)' of \(entity.name) holds \(stored), which is not a \(Value.self)")
    }

    /// An unregistered object of `entity` whose attributes hold distinct sentinels; reading
    /// through it records the slots read.
    static func makeProbe(for entity: EntityDescription) -> ManagedObject {
        let probe = entity.managedObjectClass.init(entity: entity, insertInto: nil)
        probe.values = entity.storedProperties.indices.map { entity.sentinel(forSlot: $0) }
        probe.transientValues = entity.transientAttributes.indices.map {
            entity.sentinel(forSlot: entity.storedProperties.count + $0)
        }
        probe.isProbe = true
        return probe
    }

    // MARK: Identity

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The entity, the object ID and the values, for debugging.
    open var description: String {
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        if isFaultState { return "<\(entity.name) 0x\(address)> (\(objectID); data: <fault>)" }
        let data = entity.storedProperties.enumerated().map { "\($1.name) = \(values[$0])" }.joined(separator: "; ")
        return "<\(entity.name) 0x\(address)> (\(objectID); data: {\(data)})"
    }
}
