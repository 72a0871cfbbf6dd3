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

    /// Opens (or creates) the store at `url`.
    public init(url: URL, readOnly: Bool = false) throws {
        self.url = url
        container = PersistentContainer(name: "rates", managedObjectModel: RatesModel.model)
        var description = PersistentStoreDescription(url: url)
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        // The one merge path: ManagedStore hands every background context's save to the view
        // context, which merges it on the main queue (Core Data's way).
        container.viewContext.automaticallyMergesChangesFromParent = true
    }

    /// The main-queue context.
    public var viewContext: ManagedObjectContext { container.viewContext }

    /// Where the store is by default: `$ECBRATES_STORE`, else `$XDG_DATA_HOME/ecbrates/rates.sqlite`,
    /// else `~/.local/share/ecbrates/rates.sqlite`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["ECBRATES_STORE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("ecbrates/rates.sqlite")
    }
}
