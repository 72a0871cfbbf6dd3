import Foundation
import Synchronization

/// A store added to a coordinator: an SQLite file, or an in-memory database.
public final class PersistentStore: Sendable, CustomStringConvertible {
    /// The store's identifier, kept in the store file; it appears in object ID URIs.
    public let identifier: String
    /// The store's location (`/dev/null` for an in-memory store).
    public let url: URL
    /// True when the store refuses saves.
    public let isReadOnly: Bool
    /// True when the store is read as an immutable file (SQLite's `immutable=1`): a read-only
    /// store in a folder this process cannot write, with no WAL beside it, so that SQLite cannot
    /// make its WAL index (`-shm`). The file is read alone, and no later change to it can be seen:
    /// the coordinator posts no remote change notifications for it, and a read that finds the file
    /// changed fails rather than answer from a mix.
    public let isImmutable: Bool
    /// True for an in-memory store.
    public var isInMemory: Bool { url.path == "/dev/null" }
    /// The model's configuration whose entities the store holds (Core Data's
    /// `configurationName`); nil for the default configuration, every entity.
    public let configurationName: String?

    /// The store's number in this process (1, 2, …), which its object IDs carry.
    let number: UInt16

    /// Every store made in this process, by number (stores are immortal: see `Immortal`).
    private static let all = Mutex<[UInt16: PersistentStore]>([:])
    private static let made = Atomic<Int>(0)

    init(
        identifier: String, url: URL, isReadOnly: Bool, isImmutable: Bool = false, configurationName: String? = nil
    ) {
        self.configurationName = configurationName
        self.identifier = identifier
        self.url = url
        self.isReadOnly = isReadOnly
        self.isImmutable = isImmutable
        let number = Self.made.add(1, ordering: .relaxed).newValue
        precondition(number <= Int(UInt16.max), "ManagedStore: more than \(UInt16.max) stores opened in one process")
        self.number = UInt16(number)
        Self.all.withLock { $0[UInt16(number)] = self }
        Immortal.keep(self)
    }

    /// The store numbered `number`; nil for 0 (a temporary ID).
    static func numbered(_ number: UInt16) -> PersistentStore? {
        guard number > 0 else { return nil }
        return all.withLock { $0[number] }
    }

    public var description: String { "store \(identifier) at \(url.path)" }
}
