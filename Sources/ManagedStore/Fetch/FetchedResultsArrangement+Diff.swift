import Foundation

extension FetchedResultsArrangement {
    /// The changes that turn this arrangement into `new`, as Core Data's fetched results
    /// controller reports them:
    ///
    /// - an object only in `new` is an insertion, one only here a deletion; a section (by its
    ///   key) likewise;
    /// - an object in both whose sort keys changed is a move from its old index path to its new
    ///   one, or an update when its index path stayed the same (the behaviour Core Data
    ///   documents and had up to iOS 8; iOS 9 reported a move with equal index paths, filed as
    ///   a bug, rdar://22380191);
    /// - an object in both whose sort keys did not change (so the objects around it did not
    ///   pass it) is not reported when its index path shifts only because of insertions and
    ///   deletions before it, and is an update when it is in `updated` (or `updatingAll`).
    ///
    /// The objects left unreported, with the updated ones, keep their order, so that a table
    /// view's batch update made of these changes gives `new`: when they would not (equal sort
    /// keys ordered differently, as after a save gives a pending object its row), the fewest of
    /// them are reported as moves too (those off a longest increasing subsequence).
    func changes(
        to new: FetchedResultsArrangement, updated: Set<ManagedObjectID>, updatingAll: Bool
    ) -> FetchedResultsChangeSet {
        var changes = FetchedResultsChangeSet()
        let oldSectionKeys = Set(sections.map(\.key))
        let newSectionKeys = Set(new.sections.map(\.key))
        for (index, section) in sections.enumerated() where !newSectionKeys.contains(section.key) {
            changes.sectionChanges.append(.delete(name: section.name, at: index))
        }
        for (index, section) in new.sections.enumerated() where !oldSectionKeys.contains(section.key) {
            changes.sectionChanges.append(.insert(name: section.name, at: index))
        }

        /// An object in both arrangements.
        struct Kept {
            let old: Int
            let new: Int
            let keysChanged: Bool
            /// Whether it may stay unmoved: its keys did not change, or its index path and
            /// section stayed the same.
            let mayStay: Bool
        }
        var kept: [Kept] = []
        kept.reserveCapacity(min(count, new.count))
        for (offset, id) in ids.enumerated() {
            guard let newOffset = new.offsets[id], offsets[id] == offset else {
                changes.objectChanges.append(.delete(id, at: indexPath(ofOffset: offset)))
                continue
            }
            let keysChanged = keys(at: offset) != new.keys(at: newOffset)
            var mayStay = !keysChanged
            if keysChanged {
                let section = sectionIndex(ofOffset: offset), newSection = new.sectionIndex(ofOffset: newOffset)
                mayStay =
                    section == newSection && sections[section].key == new.sections[newSection].key
                    && offset - sections[section].start == newOffset - new.sections[newSection].start
            }
            kept.append(Kept(old: offset, new: newOffset, keysChanged: keysChanged, mayStay: mayStay))
        }
        for (offset, id) in new.ids.enumerated() where offsets[id] == nil || new.offsets[id] != offset {
            changes.objectChanges.append(.insert(id, at: new.indexPath(ofOffset: offset)))
        }

        let staying = kept.indices.filter { kept[$0].mayStay }
        let stays = Self.longestIncreasingRun(staying.map { kept[$0].new }).reduce(into: Set<Int>()) {
            $0.insert(staying[$1])
        }
        var moves: [(Int, FetchedResultsChangeSet.ObjectChange)] = []
        for (index, object) in kept.enumerated() {
            let id = ids[object.old]
            if !stays.contains(index) {
                moves.append(
                    (
                        object.new,
                        .move(id, from: indexPath(ofOffset: object.old), to: new.indexPath(ofOffset: object.new))
                    ))
            } else if object.keysChanged || updatingAll || updated.contains(id) {
                changes.objectChanges.append(.update(id, at: indexPath(ofOffset: object.old)))
            }
        }
        // Updates come last: put the moves (by new offset) before them.
        let firstUpdate =
            changes.objectChanges.firstIndex { if case .update = $0 { return true } else { return false } }
            ?? changes.objectChanges.endIndex
        changes.objectChanges.insert(contentsOf: moves.sorted { $0.0 < $1.0 }.map(\.1), at: firstUpdate)
        return changes
    }

    /// The positions in `values` of a longest strictly increasing subsequence (all of them,
    /// without more work, when `values` already increases).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { return Array(values.indices) }
        // Patience sorting: tails[k] is the position of the smallest last value of an
        // increasing subsequence of length k + 1; previous links each position to the one
        // before it in its subsequence.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }
}
