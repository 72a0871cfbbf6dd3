import Foundation
import Synchronization

/// The whole stack in one object: a model, a coordinator with its store, a main-queue
/// ``viewContext`` and private-queue background contexts.
///
/// ```swift
/// let container = PersistentContainer(name: "Notes", managedObjectModel: model)
/// try container.loadPersistentStores()
/// try await container.performBackgroundTask { context in
///     let note = Note(context: context)
///     note.title = "Groceries"
///     try context.save()
/// }
/// let notes = try container.viewContext.fetch(FetchRequest<Note>())
/// ```
///
/// `@unchecked Sendable`: the only mutable state, ``persistentStoreDescriptions``, is kept in a
/// `Mutex`; everything else is immutable or `Sendable`.
open class PersistentContainer: @unchecked Sendable {
    /// The container's name; the default store is `<name>.sqlite` in ``defaultDirectoryURL()``.
    public let name: String
    /// The model.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator that the container's contexts share.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The main-queue context, for reading on behalf of the user interface or a front-end.
    public let viewContext: ManagedObjectContext
    private let descriptions: Mutex<[PersistentStoreDescription]>

    /// A container named `name` for `managedObjectModel`; call ``loadPersistentStores()`` next.
    public init(name: String, managedObjectModel: ManagedObjectModel) {
        self.name = name
        self.managedObjectModel = managedObjectModel
        let coordinator = PersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        self.persistentStoreCoordinator = coordinator
        let viewContext = ManagedObjectContext(concurrencyType: .mainQueue)
        viewContext.persistentStoreCoordinator = coordinator
        viewContext.name = "viewContext"
        self.viewContext = viewContext
        let url = Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite", isDirectory: false)
        self.descriptions = Mutex([PersistentStoreDescription(url: url)])
    }

    /// Where stores go by default: `$XDG_DATA_HOME`, else `~/.local/share` (`$HOME`, as the XDG
    /// base directory specification says, else the user database's home directory).
    open class func defaultDirectoryURL() -> URL {
        if let data = ProcessEnvironment.value("XDG_DATA_HOME"), data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true)
        }
        // $HOME first: asking the user database (getpwuid) loads NSS and tries nscd, at the
        // start of every program that makes a container, even one that names its store.
        let home = ProcessEnvironment.value("HOME").flatMap {
            $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil
        }
        return (home ?? FileManager.default.homeDirectoryForCurrentUser)
            .appendingPathComponent(".local", isDirectory: true)
            .appendingPathComponent("share", isDirectory: true)
    }

    /// The stores to load, each of its own configuration when there are several. Set before
    /// ``loadPersistentStores()``, which loads them all.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { descriptions.withLock { $0 } }
        set { descriptions.withLock { $0 = newValue } }
    }

    /// Opens the stores, in order, creating those that do not exist. Throws the first error,
    /// after which the stores before it stay loaded and those after it are not tried (see
    /// ``PersistentStoreCoordinator/addPersistentStore(with:)``).
    public func loadPersistentStores() throws {
        let descriptions = persistentStoreDescriptions
        guard !descriptions.isEmpty else { throw ManagedStoreError.noPersistentStore }
        for description in descriptions { try persistentStoreCoordinator.addPersistentStore(with: description) }
    }

    /// Opens each store and calls `completionHandler` with its description and its error, if
    /// any (Core Data's `loadPersistentStores(completionHandler:)`), once per description.
    public func loadPersistentStores(completionHandler: (PersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            do {
                try persistentStoreCoordinator.addPersistentStore(with: description)
                completionHandler(description, nil)
            } catch {
                completionHandler(description, error)
            }
        }
    }

    /// A new private-queue context on the coordinator, a sibling of ``viewContext``.
    public func newBackgroundContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new background context's queue.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its result.
    public func performBackgroundTask<T: Sendable, E: Error>(
        _ block: @escaping @Sendable (ManagedObjectContext) throws(E) -> T
    ) async throws(E) -> T {
        let context = newBackgroundContext()
        return try await context.perform { () throws(E) -> T in try block(context) }
    }
}
