import EurofxrefFeed
import Foundation
import ManagedStore

/// An ecbrates store: the container over the SQLite file that holds the rates.
///
/// ```swift
/// let store = try RatesStore(url: RatesStore.defaultURL())
/// let rates = try store.viewContext.fetch(FetchRequest<Eurofxrefhist>())
/// ```
///
/// `Sendable`: every stored property is immutable and `Sendable`.
public final class RatesStore: Sendable {
    /// Where the store is (`/dev/null` for an in-memory store).
    public let url: URL
    /// The container: its `viewContext` answers queries, its background contexts import.
    public let container: PersistentContainer
    /// For a store made by ``asOf(_:)``: the moment whose state it holds (queries then take it
    /// as their "now"); nil for a store on a file.
    public let asOf: Date?

    /// Opens (or creates) the store at `url`. Its view context merges every save of the
    /// background contexts (an import's chunks, as they commit), as a front-end's must; a
    /// one-shot import that nobody reads through the view context passes
    /// `mergingIntoViewContext: false` and saves the work (as Core Data does, a merge registers
    /// every inserted object in the view context: 0.1–0.2 s of a full-history import).
    ///
    /// A store written by an earlier release (model version 1) is migrated on this first use,
    /// losslessly and in one transaction, even when `readOnly` is asked for (it is then
    /// opened for writing once, to migrate it); a store this user cannot write stays as it is,
    /// and the error says so.
    ///
    /// Every change is recorded in the store's persistent history (kept
    /// ``historyRetentionDays`` days), so that other processes learn what changed: with
    /// `observingOtherProcesses`, the coordinator posts a remote change notification for every
    /// commit to the store (see ``RemoteChangeMerger``, which merges them into the view context).
    public convenience init(
        url: URL, readOnly: Bool = false, mergingIntoViewContext: Bool = true, observingOtherProcesses: Bool = false
    ) throws {
        try self.init(
            url: url, readOnly: readOnly, mergingIntoViewContext: mergingIntoViewContext,
            observingOtherProcesses: observingOtherProcesses, recordingHistory: true)
    }

    /// The store at `url`, with persistent history recorded or not: for `scripts/bench`, which
    /// measures what recording it costs (a store that has history refuses writes without it).
    package init(
        url: URL, readOnly: Bool = false, mergingIntoViewContext: Bool = true, observingOtherProcesses: Bool = false,
        recordingHistory: Bool
    ) throws {
        // A directory (or an empty --store, which names the working directory) is not a store:
        // said so, rather than SQLite's "disk I/O error".
        var isDirectory: ObjCBool = false
        if url.path != "/dev/null", FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            throw NoStoreError(path: url.path, isDirectory: true)
        }
        // A store this user may not read (mode 0000, another user's 0600) is said so, before
        // SQLite's "unable to open database file" (or a write's "read-only") can be.
        if url.path != "/dev/null", FileManager.default.fileExists(atPath: url.path), access(url.path, R_OK) != 0,
            errno == EACCES
        {
            throw StoreAccessError(path: url.path)
        }
        self.url = url
        self.asOf = nil
        container = PersistentContainer(name: "rates", managedObjectModel: RatesModel.model)
        var description = Self.description(url)
        description.persistentHistoryTracking = recordingHistory
        description.isReadOnly = readOnly
        description.remoteChangeNotificationsEnabled = observingOtherProcesses
        container.persistentStoreDescriptions = [description]
        do {
            try container.loadPersistentStores()
        } catch ManagedStoreError.storeNeedsMigration where readOnly {
            do {
                let writer = PersistentContainer(name: "rates", managedObjectModel: RatesModel.model)
                writer.persistentStoreDescriptions = [Self.description(url)]
                try writer.loadPersistentStores()
            }
            try container.loadPersistentStores()
        }
        // The one merge path: ManagedStore hands every background context's save to the view
        // context, which merges it on the main queue (Core Data's way).
        container.viewContext.automaticallyMergesChangesFromParent = mergingIntoViewContext
    }

    /// How many days of persistent history a store keeps: every save purges what is older. The
    /// import log (``ImportRun``, ``RateCorrection``) is kept for good: it is what `--as-of`
    /// and `corrections` answer from, and it grows by a few rows a night.
    public static let historyRetentionDays = 90

    /// How ecbrates opens a store file: persistent history on, kept ``historyRetentionDays``.
    static func description(_ url: URL) -> PersistentStoreDescription {
        var description = PersistentStoreDescription(url: url)
        description.persistentHistoryTracking = true
        description.persistentHistoryRetentionDays = historyRetentionDays
        // Any user who may read the store reads it with any SQLite client, also one who may
        // not write its directory: docs/store.md.
        description.keepsWriteAheadLogFiles = true
        return description
    }

    /// An empty in-memory store that stands for a store as of `moment` (``asOf(_:)`` fills it).
    init(emptySnapshotAsOf moment: Date) throws {
        url = URL(fileURLWithPath: "/dev/null")
        asOf = moment
        container = PersistentContainer(name: "rates", managedObjectModel: RatesModel.model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try container.loadPersistentStores()
    }

    /// The main-queue context.
    public var viewContext: ManagedObjectContext { container.viewContext }

    /// True when the store is read as an immutable file: shipped read-only (a read-only volume, a
    /// package, a backup) without its `-wal` and `-shm`, in a folder this user cannot write, so that
    /// SQLite cannot make the WAL index it needs to see other processes' commits. It answers as it
    /// is; later changes to it cannot be seen (``PersistentStore/isImmutable``).
    public var isImmutableFile: Bool {
        container.persistentStoreCoordinator.persistentStores.first?.isImmutable ?? false
    }

    /// Says why later changes cannot be seen, for a store read as an immutable file (nil for any other).
    public var unseenChangesReason: String? {
        guard isImmutableFile else { return nil }
        return
            "\(url.path) is read-only, in a folder this user cannot write and without its -shm file: it is read as it is, and later changes to it cannot be seen"
    }

    /// Where the store is by default: `$ECBRATES_STORE`, else the user's own
    /// (`$XDG_DATA_HOME/ecbrates/rates.sqlite`, else `~/.local/share/ecbrates/rates.sqlite`),
    /// else, when the user has none, the system-wide store if there is one
    /// (`/var/lib/ecbrates/rates.sqlite`; see ``StoreLocation``).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StoreLocation.resolve(option: nil, environment: environment).url
    }

    /// An XDG Base Directory: `$variable` when it is an absolute path, else `~/fallback`
    /// (`XDG_DATA_HOME`, `.local/share`; `XDG_STATE_HOME`, `.local/state`).
    public static func baseDirectory(
        _ variable: String, else fallback: String, environment: [String: String]
    ) -> URL {
        if let path = environment[variable], path.hasPrefix("/") {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(fallback, isDirectory: true)
    }
}
