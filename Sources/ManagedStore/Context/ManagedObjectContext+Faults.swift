import Foundation

/// How faults are fulfilled: how old their values may be (`stalenessInterval`), and what becomes
/// of an inaccessible fault, an object whose row was deleted from the store (by another context
/// or process) before this context loaded it (`shouldDeleteInaccessibleFaults`).
extension ManagedObjectContext {
    /// Whether the context turns an inaccessible fault (an object with no row in the store)
    /// into a deleted object when it is fired (default true), as Core Data's
    /// `shouldDeleteInaccessibleFaults`: "the object's attributes … are all set to nil or 0;
    /// the object's isDeleted property is set to true, which adds the object to the context's
    /// deletedObjects set; the object is exempt from validation rules … and the context
    /// discards it when you next call save() or reset()". When false, firing such a fault traps
    /// with a message naming the object (where Core Data raises an exception).
    ///
    /// "nil or 0" is, for a non-optional attribute of a Swift type that has no nil: `""`, `0`,
    /// `false`, the date 1970-01-01 00:00 UTC, empty data, the all-zero UUID.
    public var shouldDeleteInaccessibleFaults: Bool {
        get { settings.withLock { $0.shouldDeleteInaccessibleFaults } }
        set { settings.withLock { $0.shouldDeleteInaccessibleFaults = newValue } }
    }

    /// The most time that may have passed since the store's values of an object were read
    /// before fulfilling its fault reads them again (Core Data's `stalenessInterval`: "the
    /// maximum length of time that may have elapsed since the store previously fetched data
    /// before fulfilling a fault issues a new fetch rather than using the previously-fetched
    /// data"; negative, the default: no limit). The previously fetched data is what a fetch
    /// left in the faults it returned (``FetchRequest/returnsObjectsAsFaults``); ManagedStore
    /// keeps no cache of rows between contexts, so any other fault reads the store (or its
    /// parent) when it is fulfilled.
    public var stalenessInterval: TimeInterval {
        get { settings.withLock { $0.stalenessInterval } }
        set { settings.withLock { $0.stalenessInterval = newValue } }
    }

    /// Lets go of the values a fetch left in the fault `object`: firing it will read the store.
    func forgetCachedRow(of object: ManagedObject) {
        object.values = []
        object.committedValues = []
        object.hasCachedRow = false
    }

    /// Makes `object`, whose row is gone, a deleted object with nil or zero values.
    func deleteInaccessible(_ object: ManagedObject) {
        let values = object.entity.storedProperties.map(Self.emptyValue)
        object.values = values
        object.committedValues = values
        object.isFaultState = false
        object.isDeletedState = true
        let key = ObjectIdentifier(object)
        updated[key] = nil
        deleted[key] = object
        pendingDeleted[key] = object
        inaccessible[key] = object
    }

    /// Lets go of the inaccessible objects (at a save or a reset: there is no row to delete).
    func discardInaccessible() {
        let objects = inaccessible.values
        inaccessible.removeAll()
        for object in objects { evict(object) }
    }

    /// The value of an inaccessible object's attribute: nil, or the type's zero.
    private static func emptyValue(_ attribute: AttributeDescription) -> AttributeValue {
        if attribute.isOptional { return .null }
        switch attribute.type {
        case .string: return .string("")
        case .uri: return .string("about:blank")
        case .integer16, .integer32, .integer64: return .integer(0)
        case .double: return .double(0)
        case .decimal: return .decimal(0)
        case .boolean: return .boolean(false)
        case .date: return .date(Date(timeIntervalSince1970: 0))
        case .day: return .day(0)
        case .binaryData: return .binaryData(Data())
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .transformable, .objectID: return .null
        }
    }
}
