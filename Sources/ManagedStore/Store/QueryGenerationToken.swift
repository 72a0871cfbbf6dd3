import Foundation

/// Which generation of the store a context reads (Core Data's `NSQueryGenerationToken`).
///
/// ```swift
/// try viewContext.setQueryGenerationFrom(.current)   // pin: reads see the store as it is now
/// let rows = try viewContext.fetch(request)          // …and so does every later fetch,
/// let total = try viewContext.count(for: request)    // whatever imports commit meanwhile
/// try viewContext.setQueryGenerationFrom(.unpinned)  // live reads again (nil does the same)
/// ```
///
/// A pinned context moves to the store's newest generation when it saves, merges changes or
/// is reset, as in Core Data. A context's ``ManagedObjectContext/queryGenerationToken`` can be
/// given to another context of the same store, which then reads the same generation.
public final class QueryGenerationToken: Sendable, Hashable, CustomStringConvertible {
    /// "The store as it is when the token is used": pins a context to the newest generation.
    public static let current = QueryGenerationToken(generation: nil)
    /// "No generation": unpins a context, which then reads the store live (as nil does).
    public static let unpinned = QueryGenerationToken(generation: nil, unpinned: true)

    let generation: QueryGeneration?
    /// True for ``unpinned``.
    let isUnpinned: Bool

    init(generation: QueryGeneration?, unpinned: Bool = false) {
        self.generation = generation
        self.isUnpinned = unpinned
    }

    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        lhs.generation === rhs.generation && lhs.isUnpinned == rhs.isUnpinned
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(generation.map(ObjectIdentifier.init))
        hasher.combine(isUnpinned)
    }

    /// The persistent history token as of this generation (for a pinned generation of a store
    /// that records history; nil for ``current`` and ``unpinned``): history fetched after it
    /// holds exactly what this generation does not see. Not in Core Data, whose tokens are
    /// opaque; it lets a front-end start following the history where its first fetch left off.
    ///
    /// A generation of several stores has a token per store: nil here, and
    /// ``persistentHistoryToken(for:)`` gives each.
    public var persistentHistoryToken: PersistentHistoryToken? {
        guard let pins = generation?.pins, pins.count == 1 else { return nil }
        return PersistentHistoryToken(
            transactionNumber: pins[0].historyTransactionNumber, storeIdentifier: pins[0].store.identifier)
    }

    /// The persistent history token of `store` as of this generation (nil for a store it does
    /// not pin, and for ``current`` and ``unpinned``).
    public func persistentHistoryToken(for store: PersistentStore) -> PersistentHistoryToken? {
        guard let pin = generation?.pins.first(where: { $0.store === store }) else { return nil }
        return PersistentHistoryToken(
            transactionNumber: pin.historyTransactionNumber, storeIdentifier: store.identifier)
    }

    public var description: String {
        if isUnpinned { return "unpinned" }
        guard let generation else { return "current generation" }
        return "generation of "
            + generation.pins.map {
                "store \($0.store.identifier) at history transaction \($0.historyTransactionNumber)"
            }
            .joined(separator: ", ")
    }
}
