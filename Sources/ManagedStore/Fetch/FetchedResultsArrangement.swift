import Foundation

/// What a ``FetchedResultsController`` shows, reduced to IDs: each result's ID and sort keys,
/// in the request's order, cut into sections. Diffing two of them gives the changes to report
/// (see `FetchedResultsArrangement+Diff.swift`).
struct FetchedResultsArrangement {
    /// A run of results that share the section key (the first sort key), or every result when
    /// the controller has no sections.
    struct Section {
        /// The section's identity: the value of its objects' section attribute (`.null` for
        /// the one section of a controller without sections).
        let key: AttributeValue
        let name: String
        let start: Int
        var count: Int
    }

    private(set) var ids: [ManagedObjectID]
    /// The sort keys, `keyCount` values per result, flat.
    private let keys: [AttributeValue]
    let keyCount: Int
    let sections: [Section]
    /// Each result's offset in `ids`.
    private(set) var offsets: [ManagedObjectID: Int]

    /// The arrangement of `rows`, already in order; with `sectioned`, the first sort key names
    /// the sections (the controller checked that the first sort descriptor sorts by it, so that
    /// equal keys are adjacent).
    init(rows: [SQLiteStore.KeyedRow], keyCount: Int, sectioned: Bool) {
        self.keyCount = keyCount
        var ids: [ManagedObjectID] = []
        var keys: [AttributeValue] = []
        var offsets: [ManagedObjectID: Int] = [:]
        ids.reserveCapacity(rows.count)
        keys.reserveCapacity(rows.count * keyCount)
        offsets.reserveCapacity(rows.count)
        var sections: [Section] = []
        for (offset, row) in rows.enumerated() {
            ids.append(row.id)
            keys.append(contentsOf: row.keys)
            // A duplicate (an object that took an ID another row has) keeps its first place.
            if offsets[row.id] == nil { offsets[row.id] = offset }
            guard sectioned else { continue }
            if let last = sections.last, last.key == row.keys[0] {
                sections[sections.count - 1].count += 1
            } else {
                sections.append(
                    Section(key: row.keys[0], name: Self.sectionName(for: row.keys[0]), start: offset, count: 1))
            }
        }
        if !sectioned {
            // Core Data: without a section key path there is one section, even when empty.
            sections = [Section(key: .null, name: "", start: 0, count: rows.count)]
        }
        self.ids = ids
        self.keys = keys
        self.offsets = offsets
        self.sections = sections
    }

    var count: Int { ids.count }

    /// The sort keys of the result at `offset`.
    func keys(at offset: Int) -> ArraySlice<AttributeValue> {
        keys[offset * keyCount..<(offset + 1) * keyCount]
    }

    /// The index of the section that holds the result at `offset`.
    func sectionIndex(ofOffset offset: Int) -> Int {
        var low = 0, high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].start <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The index path (section, item) of the result at `offset`.
    func indexPath(ofOffset offset: Int) -> IndexPath {
        let section = sectionIndex(ofOffset: offset)
        return IndexPath(indexes: [section, offset - sections[section].start])
    }

    /// The offset of the result at `indexPath`, or nil when there is none.
    func offset(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2 else { return nil }
        let section = indexPath[0], item = indexPath[1]
        guard sections.indices.contains(section), item >= 0, item < sections[section].count else { return nil }
        return sections[section].start + item
    }

    /// Renames the result `oldID` (an object whose temporary ID became permanent).
    mutating func replaceID(_ oldID: ManagedObjectID, with newID: ManagedObjectID) {
        guard let offset = offsets.removeValue(forKey: oldID) else { return }
        ids[offset] = newID
        if offsets[newID] == nil { offsets[newID] = offset }
    }

    /// The name of the section whose key is `key`: a string as it is, nil as "" (as Core Data
    /// names a section whose key is nil), anything else as it prints.
    static func sectionName(for key: AttributeValue) -> String {
        switch key {
        case .string(let value): return value
        case .null: return ""
        default: return key.description
        }
    }
}
