import Foundation
@_spi(Reflection) import Swift

extension EntityDescription {
    /// The attribute slot of an `@Attribute` property, given the key path of its wrapper storage.
    ///
    /// The fast path reads the entity's published table of resolved key paths, without a lock.
    /// The first access to a property resolves it: the wrapper on `object` is tagged and found
    /// again among the class's fields, which gives the property's name.
    @usableFromInline
    func slot<Object: ManagedObject, Wrapper: AttributePropertyWrapper>(
        forStorage storage: ReferenceWritableKeyPath<Object, Wrapper>, of object: Object
    ) -> Int {
        let key = ObjectIdentifier(storage)
        let found = storageSlotTable.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.slot(for: key) }
        if let found { return found }
        return resolveSlot(forStorage: storage, of: object)
    }

    private func resolveSlot<Object: ManagedObject, Wrapper: AttributePropertyWrapper>(
        forStorage storage: ReferenceWritableKeyPath<Object, Wrapper>, of object: Object
    ) -> Int {
        let tag = Int.min + 7
        let saved = object[keyPath: storage].tag
        object[keyPath: storage].tag = tag
        defer { object[keyPath: storage].tag = saved }
        let name = Self.propertyName(of: Wrapper.self, in: object, taggedWith: tag)
        guard let name, let slot = slotByName[name] else {
            preconditionFailure(
                "ManagedStore: \(type(of: object)).\(name ?? "?") is an @Attribute, but entity \(self.name) has no attribute of that name"
            )
        }
        publish(storage, slot: slot)
        return slot
    }

    /// Publishes `slot` for the wrapper storage key path `storage`, for lock-free reads.
    func publish(_ storage: AnyKeyPath, slot: Int) {
        storageKeyPaths.withLock { retained in
            let key = ObjectIdentifier(storage)
            let current = storageSlotTable.load(ordering: .acquiring).takeUnretainedValue()
            guard current.slot(for: key) == nil else { return }
            // Keep the key path (so that its identity stays its own) and every table ever
            // published (a reader may still hold one); both are few per entity.
            retained.keyPaths.append(storage)
            let table = StorageSlotTable(keys: current.keys + [key], slots: current.slots + [slot])
            retained.tables.append(table)
            storageSlotTable.store(Unmanaged.passUnretained(table), ordering: .releasing)
        }
    }

    /// The attribute slot a key path of `managedObjectClass` reads, for predicates and sort
    /// descriptors; nil when it is not exactly one attribute read unchanged.
    ///
    /// A probe object whose attributes hold distinct sentinel values is read through the key
    /// path: the key path names an attribute when it reads exactly one, and returns its
    /// sentinel unchanged. That rejects computed properties that transform a value.
    func slot(forKeyPath keyPath: AnyKeyPath) -> Int? {
        if let slot = keyPathSlots.withLock({ $0[keyPath] }) { return slot }
        let probe = ManagedObject.makeProbe(for: self)
        guard let result = probe[keyPath: keyPath],
            probe.probeReads.count == 1, let slot = probe.probeReads.first, slot < storedProperties.count,
            let representable = result as? any AttributeRepresentable,
            representable.attributeValue == probe.values[slot]
        else { return nil }
        keyPathSlots.withLock { $0[keyPath] = slot }
        return slot
    }

    /// The name of the property of `object` (or a superclass) whose wrapper storage, of type
    /// `Wrapper`, holds `tag` (the storage is named `_name`).
    ///
    /// It walks the class's stored fields with the standard library's field enumeration and
    /// reads the tag at each field of exactly that type. Not `Mirror`: a mirror asks the Swift
    /// runtime whether each value it meets conforms to `CustomReflectable` and the like, and on
    /// Linux each such first question scans every protocol conformance of the binary (about
    /// 5,500 in `ecbrates`). Mirrors made 20 of the 52 scans of an `ecbrates rate` run, about
    /// 1 ms of its start (`scripts/bench`, "Query: ecbrates rate").
    static func propertyName<Object: ManagedObject, Wrapper: TaggedPropertyWrapper>(
        of _: Wrapper.Type, in object: Object, taggedWith tag: Int
    ) -> String? {
        // `_EachFieldOptions.classType` (rawValue 1: walk a class and its superclasses), spelled
        // by value because the standard library declares it as a mutable static.
        let classFields = _EachFieldOptions(rawValue: 1)
        var name: String?
        withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            _ = _forEachField(of: type(of: object), options: classFields) { fieldName, offset, fieldType, _ in
                guard fieldType == Wrapper.self,
                    (base + offset).assumingMemoryBound(to: Wrapper.self).pointee.tag == tag
                else { return true }
                name = String(String(cString: fieldName).dropFirst())
                return false
            }
        }
        return name
    }

    /// The relationship a key path of `managedObjectClass` reads (`\Book.author`,
    /// `\Author.books`), found with a probe as ``slot(forKeyPath:)`` finds attributes; nil for
    /// anything else.
    func relationship(forKeyPath keyPath: AnyKeyPath) -> ResolvedRelationship? {
        let probe = ManagedObject.makeProbe(for: self)
        _ = probe[keyPath: keyPath]
        if probe.probeRelationships.count == 1, probe.probeReads.isEmpty {
            return resolvedRelationships.first { $0.name == probe.probeRelationships[0] }
        }
        if probe.probeRelationships.isEmpty, probe.probeReads.count == 1 {
            return resolvedRelationships.first { $0.slot == probe.probeReads[0] }
        }
        return nil
    }

    /// For a key path through the to-one at `slot`, and perhaps further to-ones, to an attribute
    /// (`\Book.author?.name`, Core Data's `author.name`; `\Review.book?.author?.name`): each
    /// step's destination and the slot read there; nil for anything else (a relationship itself,
    /// its object ID, a computed property).
    ///
    /// Probes follow the key path: each to-one read leads to a probe of its destination, one
    /// step further at each try, until an attribute is read at the end (at most 8 steps).
    func attributeThroughToOnes(at slot: Int, keyPath: AnyKeyPath) -> [SortKey.Hop]? {
        guard var next = slotDestinations[slot] else { return nil }
        var destinations: [EntityDescription] = []
        while destinations.count < 8 {
            destinations.append(next)
            let probe = ManagedObject.makeProbe(for: self)
            let probes = destinations.map(ManagedObject.makeProbe(for:))
            probe.probeDestination = probes[0]
            for (near, far) in zip(probes, probes.dropFirst()) { near.probeDestination = far }
            _ = probe[keyPath: keyPath]
            guard probe.probeReads == [slot] else { return nil }
            var hops: [SortKey.Hop] = []
            for (depth, far) in probes.enumerated() {
                guard far.probeReads.count == 1, let read = far.probeReads.first else { return nil }
                hops.append((destinations[depth], read))
            }
            let end = hops[hops.count - 1]
            if end.destination.isAttributeSlot(end.slot) { return hops }
            // The last probe read a to-one: follow it one step further.
            guard let further = end.destination.slotDestinations[end.slot] else { return nil }
            next = further
        }
        return nil
    }

    /// The name of the transient attribute `keyPath` reads, if it reads one (for a fetch's
    /// error: the store holds no transient attribute).
    func transientName(forKeyPath keyPath: AnyKeyPath) -> String? {
        guard !transientAttributes.isEmpty else { return nil }
        let probe = ManagedObject.makeProbe(for: self)
        _ = probe[keyPath: keyPath]
        guard probe.probeReads.count == 1, let slot = probe.probeReads.first, slot >= storedProperties.count else {
            return nil
        }
        return transientAttributes[slot - storedProperties.count].name
    }

    /// A value for attribute `slot` that no other attribute of the entity holds, for probes.
    func sentinel(forSlot slot: Int) -> AttributeValue {
        let type =
            slot < storedProperties.count
            ? storedProperties[slot].type : transientAttributes[slot - storedProperties.count].type
        let n = Int64(slot)
        switch type {
        case .objectID: return .null
        case .string: return .string("\u{1}probe-\(slot)")
        case .uri: return .string("x-managedstore-probe:\(slot)")
        case .integer16, .integer32, .integer64: return .integer(1000 + n)
        case .double: return .double(1000.5 + Double(n))
        case .decimal: return .decimal(Decimal(1000 + n) + Decimal(string: "0.25")!)
        case .boolean: return .boolean(true)
        case .date: return .date(Date(timeIntervalSince1970: 1000 + Double(n)))
        case .day: return .day(1000 + slot)
        case .binaryData: return .binaryData(Data([0xfe, UInt8(truncatingIfNeeded: slot)]))
        // No bytes decode as every Codable type; an optional one reads nil, which still tells
        // the slot (a non-optional one cannot be used in a predicate: see trapOnUnreadableValue).
        case .transformable: return .null
        case .uuid:
            let b = UInt8(truncatingIfNeeded: slot)
            return .uuid(UUID(uuid: (0xfe, b, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, b)))
        }
    }
}

/// The `@Attribute` storage key paths of one entity's class resolved so far, with their slots.
/// Immutable: a new table replaces it (see ``EntityDescription/slot(forStorage:of:)``).
final class StorageSlotTable: Sendable {
    let keys: [ObjectIdentifier]
    let slots: [Int]

    init(keys: [ObjectIdentifier], slots: [Int]) {
        self.keys = keys
        self.slots = slots
    }

    @inline(__always)
    func slot(for key: ObjectIdentifier) -> Int? {
        for index in keys.indices where keys[index] == key { return slots[index] }
        return nil
    }
}
