import Foundation

extension FetchedResultsController {
    /// What a notification asks of the controller: a new fetch, with the objects it says were
    /// updated (or all of them, after a reset).
    struct Refresh {
        var updated: Set<ManagedObjectID> = []
        var invalidatedAll = false

        mutating func merge(_ other: Refresh) {
            updated.formUnion(other.updated)
            invalidatedAll = invalidatedAll || other.invalidatedAll
        }
    }

    /// Hands the context's notifications to a controller without keeping it alive.
    ///
    /// `@unchecked Sendable`: `controller` is set once, before the observers are added, and
    /// read only in the observers, which run where the context posts: on its queue, the one
    /// the controller is confined to.
    final class Observer: @unchecked Sendable {
        weak var controller: FetchedResultsController?
        init(_ controller: FetchedResultsController) { self.controller = controller }
    }

    /// Whether changes are followed: Core Data's "no tracking" mode, without a delegate (or,
    /// here, a stream listened to), keeps the results as fetched.
    var isTracking: Bool { delegate != nil || streams.hasListeners }

    /// Fetches `request`'s results: every object without a batch size, else IDs and sort keys.
    func fetchResults(
        _ request: FetchRequest<Result>, batchSize: Int
    ) throws -> (rows: [SQLiteStore.KeyedRow], objects: [Result]) {
        let context = managedObjectContext
        guard batchSize == 0 else { return (try context.fetchKeyedRows(request), []) }
        // The controller reads every result's sort keys and section name, which fires a fault
        // (as Core Data's does): the objects come loaded.
        var request = request
        request.returnsObjectsAsFaults = false
        let objects = try context.fetch(request)
        let plan = try ManagedObjectContext.FetchPlan(request, entity: context.entity(for: Result.self))
        let rows = objects.map { object in
            SQLiteStore.KeyedRow(id: object.objectID, keys: plan.sortKeys.map { $0.value(of: object) })
        }
        return (rows, objects)
    }

    /// Takes fetched results as the controller's.
    func install(rows: [SQLiteStore.KeyedRow], objects: [Result]) {
        let keyCount = activeRequest?.sortDescriptors.count ?? 0
        let arrangement = FetchedResultsArrangement(
            rows: rows, keyCount: keyCount, sectioned: sectionNameKeyPath != nil)
        self.arrangement = arrangement
        allObjects = objects
        batches = []
        temporaries = [:]
        for (offset, id) in arrangement.ids.enumerated() where id.isTemporaryID {
            let object = batchSize == 0 ? allObjects[offset] : managedObjectContext.lookUp(id) as? Result
            if let object { temporaries[id] = object }
        }
    }

    func startObserving() {
        guard observers.isEmpty else { return }
        let observer = Observer(self)
        let center = NotificationCenter.default
        observers.append(
            center.addObserver(
                forName: ManagedObjectContext.objectsDidChangeNotification,
                object: managedObjectContext, queue: nil
            ) { notification in
                observer.controller?.contextObjectsDidChange(notification)
            })
        observers.append(
            center.addObserver(
                forName: ManagedObjectContext.didSaveNotification,
                object: managedObjectContext, queue: nil
            ) { notification in
                observer.controller?.contextDidSave(notification)
            })
    }

    /// objectsDidChange: refetches when it touches the entity.
    func contextObjectsDidChange(_ notification: Notification) {
        guard let entity, arrangement != nil, isTracking else { return }
        let info = notification.userInfo ?? [:]
        typealias Key = ManagedObjectContext.NotificationKey
        var refresh = Refresh()
        var touched = false
        if info[Key.invalidatedAllObjects.rawValue] as? Bool == true {
            refresh.invalidatedAll = true
            touched = true
        }
        for key in [Key.insertedObjects, .deletedObjects] {
            if let objects = info[key.rawValue] as? Set<ManagedObject>,
                objects.contains(where: { $0.entity.isKindOf(entity: entity) })
            {
                touched = true
            }
        }
        for key in [Key.updatedObjects, .refreshedObjects] {
            guard let objects = info[key.rawValue] as? Set<ManagedObject> else { continue }
            for object in objects where object.entity.isKindOf(entity: entity) {
                refresh.updated.insert(object.objectID)
                touched = true
            }
        }
        if let ids = info[Key.mergedInsertedObjectIDs.rawValue] as? Set<ManagedObjectID>,
            ids.contains(where: { $0.entity.isKindOf(entity: entity) })
        {
            touched = true
        }
        if touched { schedule(refresh) }
    }

    /// didSave: the saved objects have permanent IDs now, and a merge policy may have let some
    /// go or given them rows that were already there: refetch.
    func contextDidSave(_ notification: Notification) {
        guard let entity, arrangement != nil, isTracking else { return }
        let info = notification.userInfo ?? [:]
        typealias Key = ManagedObjectContext.NotificationKey
        let touched = [Key.insertedObjectIDs, .updatedObjectIDs, .deletedObjectIDs].contains { key in
            (info[key.rawValue] as? Set<ManagedObjectID>)?.contains { $0.entity.isKindOf(entity: entity) } ?? false
        }
        if touched { schedule(Refresh()) }
    }

    /// Runs `refresh`, or keeps it for when the round under way is reported.
    func schedule(_ refresh: Refresh) {
        if pendingRefresh == nil { pendingRefresh = refresh } else { pendingRefresh?.merge(refresh) }
        guard !isRefreshing else { return }
        isRefreshing = true
        defer { isRefreshing = false }
        while let next = pendingRefresh {
            pendingRefresh = nil
            run(next)
        }
    }

    /// Fetches again, diffs with the results held, takes the new ones and reports the changes.
    private func run(_ refresh: Refresh) {
        guard let request = activeRequest else { return }
        normalizeTemporaryIDs()
        guard let old = arrangement else { return }
        let oldObjects = allObjects, oldBatches = batches
        let fetched: (rows: [SQLiteStore.KeyedRow], objects: [Result])
        do {
            fetched = try fetchResults(request, batchSize: batchSize)
        } catch {
            trackingError = error
            return
        }
        trackingError = nil
        install(rows: fetched.rows, objects: fetched.objects)
        guard let new = arrangement else { return }
        let changes = old.changes(to: new, updated: refresh.updated, updatingAll: refresh.invalidatedAll)
        if changes.isEmpty {
            // Same results, same places: the batches made still stand (not after a reset,
            // whose objects are no longer the context's).
            if !refresh.invalidatedAll { batches = oldBatches }
            return
        }
        /// An object of the results before the changes (for a deletion).
        func oldObject(_ id: ManagedObjectID, at offset: Int) -> Result {
            if batchSize == 0 { return oldObjects[offset] }
            for batch in oldBatches where batch.index == offset / batchSize {
                return batch.objects[offset - batch.index * batchSize]
            }
            return managedObjectContext.lookUp(id) as? Result ?? detachedObject(for: id)
        }
        report(changes, old: old, oldObject: oldObject)
    }

    /// Tells the delegate, then the streams.
    private func report(
        _ changes: FetchedResultsChangeSet, old: FetchedResultsArrangement,
        oldObject: @escaping (ManagedObjectID, Int) -> Result
    ) {
        defer { streams.yield(changes) }
        guard let delegate, let new = arrangement else { return }
        delegate.controllerWillChangeContent(self)
        for change in changes.sectionChanges {
            switch change {
            case .insert(_, let index):
                delegate.controller(
                    self, didChange: sectionInfo(at: index, in: new), atSectionIndex: index, for: .insert)
            case .delete(_, let index):
                let info = sectionInfo(at: index, in: old) { ids, range in zip(ids, range).map { oldObject($0, $1) } }
                delegate.controller(self, didChange: info, atSectionIndex: index, for: .delete)
            }
        }
        // The objects of the new results a chunk at a time (a batch, with a batch size), so
        // that a large merge is reported in bounded memory.
        let chunkSize = batchSize == 0 ? changes.objectChanges.count : batchSize
        var start = 0
        while start < changes.objectChanges.count {
            let chunk = changes.objectChanges[start..<min(start + chunkSize, changes.objectChanges.count)]
            start += chunk.count
            var current: [ManagedObjectID: Result] = [:]
            if batchSize > 0 {
                let ids = chunk.filter { $0.type != .delete }.map(\.objectID)
                current = Dictionary(zip(ids, materialize(ids[...])), uniquingKeysWith: { first, _ in first })
            }
            func object(_ id: ManagedObjectID) -> Result { current[id] ?? allObjects[new.offsets[id]!] }
            for change in chunk {
                switch change {
                case .insert(let id, let newIndexPath):
                    delegate.controller(self, didChange: object(id), at: nil, for: .insert, newIndexPath: newIndexPath)
                case .delete(let id, let indexPath):
                    delegate.controller(
                        self, didChange: oldObject(id, old.offset(of: indexPath)!), at: indexPath,
                        for: .delete, newIndexPath: nil)
                case .move(let id, let from, let to):
                    delegate.controller(self, didChange: object(id), at: from, for: .move, newIndexPath: to)
                case .update(let id, let indexPath):
                    delegate.controller(
                        self, didChange: object(id), at: indexPath, for: .update,
                        newIndexPath: new.indexPath(ofOffset: new.offsets[id]!))
                }
            }
        }
        delegate.controllerDidChangeContent(self)
    }
}
