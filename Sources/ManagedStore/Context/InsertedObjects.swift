/// A context's inserted, unsaved objects, in insertion order (confined to the context's queue).
///
/// An array with tombstones rather than a dictionary: inserting is an append, saving needs no
/// sort, and the objects inserted since the last objectsDidChange are the tail past a watermark.
struct InsertedObjects {
    /// Entries in insertion order; an entry is live while its object is inserted with the same
    /// sequence number (removed or re-inserted objects leave a dead entry behind).
    private var entries: [(sequence: Int, object: ManagedObject)] = []
    private(set) var count = 0
    private var deadEntries = 0
    private var nextSequence = 0
    private var notifiedSequence = 0
    /// Built on demand, for the rare lookups by temporary ID.
    private var byID: [ManagedObjectID: ManagedObject]?

    var isEmpty: Bool { count == 0 }

    /// The inserted objects, in insertion order.
    var objects: [ManagedObject] {
        deadEntries == 0 ? entries.map(\.object) : entries.compactMap { Self.isLive($0) ? $0.object : nil }
    }

    private static func isLive(_ entry: (sequence: Int, object: ManagedObject)) -> Bool {
        entry.object.isInsertedState && entry.object.insertionSequence == entry.sequence
    }

    mutating func add(_ object: ManagedObject) {
        nextSequence += 1
        object.insertionSequence = nextSequence
        object.isInsertedState = true
        entries.append((nextSequence, object))
        count += 1
        byID?[object.objectID] = object
    }

    mutating func remove(_ object: ManagedObject) {
        guard object.isInsertedState else { return }
        object.isInsertedState = false
        count -= 1
        deadEntries += 1
        byID?[object.objectID] = nil
        if deadEntries > 64 && deadEntries * 2 > entries.count {
            entries.removeAll { !Self.isLive($0) }
            deadEntries = 0
        }
    }

    mutating func removeAll() {
        for (_, object) in entries { object.isInsertedState = false }
        entries.removeAll(keepingCapacity: true)
        count = 0
        deadEntries = 0
        notifiedSequence = nextSequence
        byID = nil
    }

    /// The inserted object with `id` (an ID it had when inserted, or obtained since).
    mutating func object(for id: ManagedObjectID) -> ManagedObject? {
        guard count > 0 else { return nil }
        if byID == nil {
            byID = Dictionary(objects.map { ($0.objectID, $0) }, uniquingKeysWith: { $1 })
        }
        return byID?[id]
    }

    /// Forgets the ID index (an inserted object's ID changed).
    mutating func invalidateIndex() { byID = nil }

    /// The objects inserted since the last call, for objectsDidChange.
    mutating func takeUnnotified() -> [ManagedObject] {
        defer { notifiedSequence = nextSequence }
        guard nextSequence > notifiedSequence else { return [] }
        if deadEntries == 0, let first = entries.first, first.sequence > notifiedSequence {
            // Every entry is the current event's and live (an importer's chunk): one pass.
            return entries.map { entry in
                entry.object.insertionAnnounced = true
                return entry.object
            }
        }
        var fresh: [ManagedObject] = []
        for entry in entries.reversed() {
            if entry.sequence <= notifiedSequence { break }
            if Self.isLive(entry) {
                entry.object.insertionAnnounced = true
                fresh.append(entry.object)
            }
        }
        return fresh.reversed()
    }

    /// The objects inserted since the last ``takeUnnotified()`` (the current event's), without
    /// taking them.
    var unnotified: [ManagedObject] {
        guard nextSequence > notifiedSequence else { return [] }
        var fresh: [ManagedObject] = []
        for entry in entries.reversed() {
            if entry.sequence <= notifiedSequence { break }
            if Self.isLive(entry) { fresh.append(entry.object) }
        }
        return fresh.reversed()
    }

    /// Whether any object was inserted since the last ``takeUnnotified()``.
    var hasUnnotified: Bool { nextSequence > notifiedSequence && count > 0 }
}
