import Foundation

/// How to open a store: where it is and how to treat it.
///
/// ```swift
/// let description = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))  // in memory
/// container.persistentStoreDescriptions = [description]
/// ```
public struct PersistentStoreDescription: Sendable, CustomStringConvertible {
    /// The store file. `/dev/null` means an in-memory store, as in Core Data.
    public var url: URL?
    /// Open the store for reading only: saves fail, and the file is never written.
    public var isReadOnly = false
    /// How long a save waits for another process's write lock before failing, in seconds.
    public var timeout: TimeInterval = 10
    /// How many read connections a file store may open, so that fetches on several queues
    /// run at once and never wait for a write.
    public var maximumReaders = 4
    /// Whether a store made by an earlier model is migrated when it is loaded (default true,
    /// as Core Data's `NSMigratePersistentStoresAutomaticallyOption`).
    public var shouldMigrateStoreAutomatically = true
    /// Whether the migration may be inferred from the two models (default true, as Core
    /// Data's `NSInferMappingModelAutomaticallyOption`); ManagedStore has no explicit mapping
    /// models, so with this off an earlier model's store is refused.
    public var shouldInferMappingModelAutomatically = true
    /// Whether every save (and batch request) records a transaction in the store's persistent
    /// history (Core Data's `NSPersistentHistoryTrackingKey`); read it with
    /// ``PersistentHistoryChangeRequest``. Default false. As in Core Data, once a store has
    /// recorded history, opening it with this off makes it read-only for that coordinator
    /// (saves throw ``ManagedStoreError/persistentHistoryTrackingRequired(url:)``), so that no
    /// change goes unrecorded.
    public var persistentHistoryTracking = false
    /// How many days of persistent history to keep (nil: all of it). A save that records
    /// history purges the transactions older than this, in its own write transaction.
    public var persistentHistoryRetentionDays: Int?
    /// Whether the coordinator posts ``PersistentStoreCoordinator/persistentStoreRemoteChangeNotification``
    /// when the store changes, whoever wrote it: another process, another coordinator, or this
    /// one (Core Data's `NSPersistentStoreRemoteChangeNotificationPostOptionKey`). Default false.
    /// A store read as an immutable file (``PersistentStore/isImmutable``) cannot be watched:
    /// none is posted for it, which its `isImmutable` says.
    public var remoteChangeNotificationsEnabled = false
    /// How often, in seconds, a coordinator posting remote change notifications looks at the
    /// store's change counter (SQLite's `data_version`, which costs a few microseconds): the
    /// most a notification lags a commit. Default 0.05.
    public var remoteChangePollInterval: TimeInterval = 0.05
    /// Whether the store's write-ahead log files (`-wal` and `-shm`) stay beside it when its
    /// last read-write connection closes (SQLite's `SQLITE_FCNTL_PERSIST_WAL`); the log is
    /// checkpointed into the store and truncated to zero bytes either way. Default false: the
    /// files are removed, and a closed store is one file. Turn it on for a store that users who
    /// may not write its directory read: a read-only SQLite connection needs both files and
    /// cannot create them. SQLite gives them the store file's permissions.
    public var keepsWriteAheadLogFiles = false

    /// The model's configuration whose entities the store holds (Core Data's `configuration`);
    /// nil, the default: every entity. Give each store of a coordinator its own configuration,
    /// sharing no entity (see ``ManagedObjectModel/init(entities:views:configurations:)``).
    public var configuration: String?

    /// A description of the store at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// True when `url` is `/dev/null`.
    public var isInMemory: Bool { url?.path == "/dev/null" }
    /// The stages that migrate a store of an earlier model version (Core Data's
    /// `NSPersistentStoreStagedMigrationManagerOptionKey`); nil: an inferred migration.
    public var stagedMigrationManager: StagedMigrationManager?

    public var description: String {
        "store at \(url?.path ?? "(no URL)")\(configuration.map { " (configuration \($0))" } ?? "")\(isReadOnly ? " (read-only)" : "")"
    }
}
