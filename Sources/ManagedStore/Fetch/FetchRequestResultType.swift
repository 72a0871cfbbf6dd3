import Foundation

/// What a fetch returns for the objects its request selects, as Core Data's
/// `NSFetchRequestResultType`; a ``FetchRequest``'s ``FetchRequest/resultType``.
public enum FetchRequestResultType: Sendable, Hashable {
    /// The objects (`FetchRequest<Note>`): Core Data's default.
    case managedObjectResultType
    /// The objects' IDs (`FetchRequest<ManagedObjectID>`), without making objects: an object
    /// inserted and not saved has its temporary ID.
    case managedObjectIDResultType
    /// One `NSDictionary` per object (`FetchRequest<NSDictionary>`), its keys the names of
    /// ``FetchRequest/propertiesToFetch`` (every attribute when nil), its values as Core Data
    /// gives them: `String`, `NSNumber` (integers, `Bool`, `Double`), `NSDecimalNumber`, `Date`,
    /// `Data`, `UUID`, and a to-one relationship's destination as its ``ManagedObjectID``. An
    /// attribute that is nil has no key. ManagedStore's own types, which Core Data lacks, come
    /// as the store holds them: a `.day` attribute as its ``AttributeValue``, a transformable
    /// one as its JSON `Data`. Read from the store: unsaved changes do not count.
    case dictionaryResultType
    /// One `NSNumber` (`FetchRequest<NSNumber>`): how many objects the request selects, as
    /// ``ManagedObjectContext/count(for:)`` counts them.
    case countResultType
}

extension FetchRequestResultType {
    /// The `FetchRequest` type argument whose results these are, for messages (for objects,
    /// the entity's class, which the message names itself).
    var resultTypeName: String {
        switch self {
        case .managedObjectResultType: return "the entity's class"
        case .managedObjectIDResultType: return "ManagedObjectID"
        case .dictionaryResultType: return "NSDictionary"
        case .countResultType: return "NSNumber"
        }
    }

    /// What a fetch of this type returns, for messages.
    var resultDescription: String {
        switch self {
        case .managedObjectResultType: return "objects"
        case .managedObjectIDResultType: return "object IDs"
        case .dictionaryResultType: return "dictionaries"
        case .countResultType: return "a count"
        }
    }
}
