import Foundation

/// What a fetch can return, as Core Data's `NSFetchRequestResult`: managed objects, their IDs,
/// dictionaries of their values (`NSDictionary`), and their count (`NSNumber`). See
/// ``FetchRequestResultType``.
public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension NSDictionary: FetchRequestResult {}
extension NSNumber: FetchRequestResult {}

extension FetchRequestResult where Self: ManagedObject {
    /// A fetch request for objects of this class's entity: `Note.fetchRequest()`, as the
    /// `fetchRequest()` Xcode generates for each `NSManagedObject` subclass returns an
    /// `NSFetchRequest<Note>` (Core Data, "Generating Code").
    ///
    /// ```swift
    /// var request = Note.fetchRequest()
    /// request.predicate = #Predicate { $0.stars > 3 }
    /// let notes = try context.fetch(request)
    /// ```
    ///
    /// ``FetchRequest`` is a value, so a request to change is a `var`.
    public static func fetchRequest() -> FetchRequest<Self> {
        FetchRequest<Self>()
    }
}
