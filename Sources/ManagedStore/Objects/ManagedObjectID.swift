import Foundation
import Synchronization

/// The identity of a managed object across contexts: `Sendable` and `Hashable`, so it may be
/// passed between queues where the object itself may not.
///
/// An object's ID is temporary until the object is saved or given a permanent ID with
/// ``ManagedObjectContext/obtainPermanentIDs(for:)``; a permanent ID names the store's row.
///
/// ```swift
/// let id = note.objectID                       // on note's context's queue
/// background.perform { let same = background.object(with: id) }
/// ```
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The entity of the object.
    public var entity: EntityDescription { unownedEntity }
    /// The store that holds the object's row, or nil for a temporary ID.
    public var persistentStore: PersistentStore? { PersistentStore.numbered(storeNumber) }
    /// The row's primary key, or the temporary ID's number.
    var key: Int64 { Int64(bitPattern: packed & Self.keyMask) }
    /// The store's number (0 for a temporary ID) in the top 16 bits, the key below: an ID is
    /// 16 bytes, so that a to-one relationship's value fits an `AttributeValue` of 24 bytes
    /// without a box (a box per row cost an import 0.1 s).
    private let packed: UInt64
    // Entities are never deallocated (see `Immortal`), so an ID needs no reference count on its
    // entity: copying an ID costs nothing.
    private unowned(unsafe) let unownedEntity: EntityDescription

    private static let keyMask: UInt64 = (1 << 48) - 1
    /// The number of the ID's store in this process (0 for a temporary ID).
    var storeNumber: UInt16 { UInt16(truncatingIfNeeded: packed >> 48) }

    /// Whether `key` fits an ID (0 through 2⁴⁸ - 1).
    static func canHold(_ key: Int64) -> Bool { key >= 0 && UInt64(key) <= keyMask }

    private static func pack(_ key: Int64, store: UInt16) -> UInt64 {
        precondition(key >= 0 && UInt64(key) <= keyMask, "ManagedStore: key \(key) does not fit an object ID (48 bits)")
        return UInt64(store) << 48 | UInt64(key)
    }

    private static let temporaryCounter = Atomic<Int64>(0)
    /// Distinguishes this process's temporary IDs from another's in URIs.
    static let processToken = UUID().uuidString.lowercased()

    init(entity: EntityDescription, store: PersistentStore, primaryKey: Int64) {
        self.unownedEntity = entity
        self.packed = Self.pack(primaryKey, store: store.number)
    }

    private init(temporaryFor entity: EntityDescription, number: Int64) {
        self.unownedEntity = entity
        self.packed = Self.pack(number, store: 0)
    }

    static func makeTemporary(for entity: EntityDescription) -> ManagedObjectID {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return ManagedObjectID(temporaryFor: entity, number: number)
    }

    static func temporary(for entity: EntityDescription, number: Int64) -> ManagedObjectID {
        ManagedObjectID(temporaryFor: entity, number: number)
    }

    /// True until the object has a row in a store.
    public var isTemporaryID: Bool { storeNumber == 0 }

    /// The name of the object's entity.
    public var entityName: String { entity.name }

    /// A URI for this ID, which ``PersistentStoreCoordinator/managedObjectID(forURIRepresentation:)``
    /// turns back into the ID: `x-managedstore://<store UUID>/<Entity>/p<key>`, or
    /// `x-managedstore:///<Entity>/t<process>-<n>` for a temporary ID.
    public func uriRepresentation() -> URL {
        let text: String
        if let persistentStore {
            text = "x-managedstore://\(persistentStore.identifier)/\(entity.name)/p\(key)"
        } else {
            text = "x-managedstore:///\(entity.name)/t\(Self.processToken)-\(key)"
        }
        guard let url = URL(string: text) else {
            preconditionFailure("ManagedStore: entity name \(entity.name) does not fit in a URI")
        }
        return url
    }

    public var description: String { uriRepresentation().absoluteString }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        // A hierarchy's entities share one table and its keys: a to-one to a superentity reads
        // the key of a sub-entity's row as an ID of the superentity, which is the same object.
        lhs.packed == rhs.packed
            && (lhs.unownedEntity === rhs.unownedEntity
                || (!lhs.isTemporaryID && lhs.unownedEntity.hierarchyRoot === rhs.unownedEntity.hierarchyRoot))
    }

    public func hash(into hasher: inout Hasher) {
        // The key alone: keys rarely repeat across entities, and equality checks the entity.
        hasher.combine(key)
    }
}

/// Encodes as its URI, so that a `#Predicate` may capture an ID (Foundation's predicates capture
/// only `Codable` values: `#Predicate<Book> { $0.author?.objectID == authorID }`). An ID names a
/// store's row, which only a coordinator can resolve: decode the URI with
/// ``PersistentStoreCoordinator/managedObjectID(forURIRepresentation:)``, not with a decoder.
extension ManagedObjectID: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uriRepresentation().absoluteString)
    }

    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription:
                    "a ManagedObjectID is resolved by PersistentStoreCoordinator.managedObjectID(forURIRepresentation:), not decoded"
            ))
    }
}
