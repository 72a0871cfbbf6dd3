import Foundation

/// The errors of the ManagedStore stack (SQLite's own errors are ``SQLiteError``).
public enum ManagedStoreError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The file exists but is not a store: not SQLite, or SQLite without ManagedStore's tables.
    case notAStore(url: URL, reason: String)
    /// The store was made by a model that differs from this one; the store was not changed.
    case incompatibleModel(url: URL, differences: [String])
    /// The store was made by an earlier model and needs a migration, which a store opened
    /// read-only cannot make: open it for writing once (it was left untouched).
    case storeNeedsMigration(url: URL, changes: [String])
    /// A migration from the store's model to this one cannot be inferred; nothing was written.
    case cannotInferMapping(url: URL, entity: String, property: String?, reason: String)
    /// A staged migration could not run (see ``StagedMigrationManager``), or one of its
    /// handlers threw; nothing was written.
    case stagedMigrationFailed(url: URL, stage: String?, reason: String)
    /// The store was written by a newer version of ManagedStore.
    case unsupportedStoreFormat(url: URL, version: Int, supported: Int)
    /// No store is loaded on the coordinator (or the context has no coordinator).
    case noPersistentStore
    /// The coordinator already has the store at `url` (a store is added once).
    case storeAlreadyAdded(url: URL)
    /// The store at `url` holds entities that the coordinator's store at `otherURL` already
    /// holds: ManagedStore keeps each entity in one store of a coordinator (give the stores
    /// configurations that share no entity); nothing was added.
    case storesOverlap(url: URL, entities: [String], otherURL: URL)
    /// No store of the coordinator holds the entity (its configuration's store was not added).
    case noStoreForEntity(String)
    /// A request named the wrong store, or, of a coordinator with several, none where it needs
    /// one: the reason says which and why.
    case wrongStore(reason: String)
    /// ``PersistentStoreCoordinator/destroyPersistentStore(at:type:timeout:)`` of the
    /// coordinator's own store; nothing was touched.
    case storeInUse(url: URL)
    /// ``PersistentStoreCoordinator/remove(_:)`` could not truncate the store's write-ahead log,
    /// which a reader still used (the store was removed all the same).
    case storeBusy(url: URL, reason: String)
    /// A save or a write on a store opened read-only.
    case readOnlyStore(url: URL)
    /// A read-only store that does not exist.
    case storeNotFound(url: URL)
    /// A store read without locks (`immutable`, for a user who cannot write beside it) that
    /// its owner changed during the read: the answer may mix two states, so there is none.
    case storeChangedWhileReading(url: URL)
    /// A predicate or sort descriptor that cannot be run as SQL.
    case unsupportedFetch(entity: String, reason: String)
    /// The entity of an object or request is not in the context's model.
    case unknownEntity(String)
    /// `existingObject(with:)` for an object whose row does not exist.
    case objectNotFound(ManagedObjectID)
    /// A URI that names no object of this coordinator's store.
    case invalidURI(URL)
    /// Values that are not valid: every failure a save found (of every object it writes), or
    /// that ``ManagedObject/validateValue(_:forKey:)`` or an override found.
    case validationFailed([ValidationFailure])
    /// A save met conflicts that its merge policy (`.error`) does not resolve.
    case saveConflicts(constraint: [ConstraintConflict], optimisticLocking: [OptimisticLockingConflict])
    /// A save on a store that records persistent history, opened without
    /// ``PersistentStoreDescription/persistentHistoryTracking``: as in Core Data, such a store
    /// is read-only, so that no change goes unrecorded.
    case persistentHistoryTrackingRequired(url: URL)
    /// A history fetch after a token whose transactions were purged since (Core Data's
    /// `NSPersistentHistoryTokenExpiredError`): what happened in between is no longer known.
    case persistentHistoryTokenExpired(token: PersistentHistoryToken, oldestKept: Int64)
    /// A history token of another store.
    case foreignHistoryToken(token: PersistentHistoryToken, storeIdentifier: String)
    /// A history token later than the store's history: it was not given by this store (or the
    /// store was made again since).
    case historyTokenAfterHistory(token: PersistentHistoryToken, current: PersistentHistoryToken)
    /// A batch request that cannot run as given; nothing was written.
    case invalidBatchRequest(entity: String, reason: String)
    /// A query generation asked of a store that cannot hold one (an in-memory store), or a
    /// token of another store.
    case queryGenerationUnavailable(reason: String)
    /// The model cannot be used: what is wrong with it (``ManagedObjectModel/validate()``).
    case invalidModel(problems: [String])
    /// The file beside the store that holds an attribute's value with external storage (see
    /// ``AttributeDescription/allowsExternalBinaryDataStorage``) cannot be read or written.
    case externalDataUnreadable(file: URL?, reason: String)

    public var description: String {
        switch self {
        case .notAStore(let url, let reason):
            return "\(url.path) is not a ManagedStore store: \(reason)"
        case .incompatibleModel(let url, let differences):
            return "the store at \(url.path) was made by an incompatible model, so it was left untouched: "
                + differences.joined(separator: "; ")
        case .storeNeedsMigration(let url, let changes):
            return
                "the store at \(url.path) was made by an earlier model and must be migrated (\(changes.joined(separator: "; "))), which a read-only open cannot do; open it for writing once. It was left untouched"
        case .cannotInferMapping(let url, let entity, let property, let reason):
            let what = property.map { "\(entity).\($0)" } ?? entity
            return "the store at \(url.path) cannot be migrated to this model: \(what): \(reason). Nothing was written"
        case .stagedMigrationFailed(let url, let stage, let reason):
            return
                "the store at \(url.path) could not be migrated\(stage.map { " (stage \($0))" } ?? ""): \(reason). Nothing was written"
        case .unsupportedStoreFormat(let url, let version, let supported):
            return
                "the store at \(url.path) has format \(version), newer than this version reads (\(supported)); it was left untouched"
        case .noPersistentStore:
            return "no persistent store is loaded"
        case .storeAlreadyAdded(let url):
            return "the coordinator already has the store at \(url.path)"
        case .storesOverlap(let url, let entities, let otherURL):
            return
                "the store at \(url.path) would hold \(entities.joined(separator: ", ")), which the coordinator's store at \(otherURL.path) holds: each entity lives in one store of a coordinator (give the stores configurations that share no entity); nothing was added"
        case .wrongStore(let reason):
            return reason
        case .noStoreForEntity(let name):
            return "no store of the coordinator holds entity \(name) (add the store of a configuration that holds it)"
        case .storeInUse(let url):
            return
                "the store at \(url.path) is this coordinator's: destroy it with a coordinator that has not added it"
        case .storeBusy(let url, let reason):
            return "the store at \(url.path) was removed, but \(reason)"
        case .readOnlyStore(let url):
            return "the store at \(url.path) is read-only"
        case .storeNotFound(let url):
            return "no store at \(url.path)"
        case .storeChangedWhileReading(let url):
            return "the store at \(url.path) changed while it was read (another user wrote it); ask again"
        case .unsupportedFetch(let entity, let reason):
            return "cannot fetch \(entity): \(reason)"
        case .unknownEntity(let name):
            return "the model has no entity \(name)"
        case .objectNotFound(let id):
            return "no object \(id) in the store (it was deleted, or never saved)"
        case .invalidURI(let url):
            return "\(url.absoluteString) names no object of this store"
        case .validationFailed(let failures):
            return "the save failed validation: " + failures.map(\.description).joined(separator: "; ")
        case .saveConflicts(let constraint, let locking):
            // The first few, then a count: the full lists are in the associated values.
            let lines = constraint.map(\.description) + locking.map(\.description)
            var text =
                "the save failed with \(lines.count) conflict\(lines.count == 1 ? "" : "s"): "
                + lines.prefix(5).joined(separator: "; ")
            if lines.count > 5 { text += "; and \(lines.count - 5) more" }
            return text
        case .persistentHistoryTrackingRequired(let url):
            return
                "the store at \(url.path) records persistent history, but was opened without tracking it, so it is read-only: open it with persistentHistoryTracking on"
        case .persistentHistoryTokenExpired(let token, let oldestKept):
            return
                "persistent history after transaction \(token.transactionNumber) was purged (the oldest kept is \(oldestKept)): what changed since is no longer known; start again from the store's contents"
        case .foreignHistoryToken(let token, let storeIdentifier):
            return
                "the history token \(token.transactionNumber) belongs to store \(token.storeIdentifier), not to this store (\(storeIdentifier))"
        case .invalidBatchRequest(let entity, let reason):
            return "batch request on \(entity): \(reason)"
        case .historyTokenAfterHistory(let token, let current):
            return
                "history token \(token.transactionNumber) is later than the store's history, which reaches \(current.transactionNumber): it is not one this store gave (or the store was made again since)"
        case .queryGenerationUnavailable(let reason):
            return "no query generation: \(reason)"
        case .invalidModel(let problems):
            return "the model cannot be used: " + problems.joined(separator: "; ")
        case .externalDataUnreadable(let file, let reason):
            return "\(file?.path ?? "external data"): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

/// Objects whose values break a uniqueness constraint, found by a save.
public struct ConstraintConflict: Sendable, CustomStringConvertible {
    /// The entity.
    public let entityName: String
    /// The attributes of the broken constraint.
    public let constraint: [String]
    /// The values the conflicting objects share.
    public let values: [String: AttributeValue]
    /// The objects of the save that conflict (the IDs they had when the save began).
    public let conflictingObjectIDs: [ManagedObjectID]
    /// The stored row they conflict with, when the conflict is with the store.
    public let databaseObjectID: ManagedObjectID?

    public var description: String {
        let shared = constraint.map { "\($0) = \(values[$0] ?? .null)" }.joined(separator: ", ")
        let with = databaseObjectID.map { "the stored \($0)" } ?? "each other"
        return
            "\(entityName) unique on (\(constraint.joined(separator: ", "))): \(conflictingObjectIDs.map(\.description).joined(separator: ", ")) conflict with \(with) (\(shared))"
    }
}

/// An object whose row changed or vanished in the store after the object was read.
public struct OptimisticLockingConflict: Sendable, CustomStringConvertible {
    /// The object.
    public let objectID: ManagedObjectID
    /// The row version the object was read at.
    public let cachedVersion: Int64
    /// The row's version in the store now, or nil when the row was deleted.
    public let persistedVersion: Int64?
    /// The object's values.
    public let objectSnapshot: [String: AttributeValue]
    /// The row's values in the store now, or nil when it was deleted.
    public let persistedSnapshot: [String: AttributeValue]?

    public var description: String {
        if let persistedVersion {
            return
                "\(objectID) was changed in the store since it was read (version \(cachedVersion) read, \(persistedVersion) stored)"
        }
        return "\(objectID) was deleted from the store since it was read"
    }
}
