import Foundation

/// A store added to a coordinator: an SQLite file, or an in-memory database.
public final class PersistentStore: Sendable, CustomStringConvertible {
    /// The store's identifier, kept in the store file; it appears in object ID URIs.
    public let identifier: String
    /// The store's location (`/dev/null` for an in-memory store).
    public let url: URL
    /// True when the store refuses saves.
    public let isReadOnly: Bool
    /// True for an in-memory store.
    public var isInMemory: Bool { url.path == "/dev/null" }

    init(identifier: String, url: URL, isReadOnly: Bool) {
        self.identifier = identifier
        self.url = url
        self.isReadOnly = isReadOnly
        Immortal.keep(self)
    }

    public var description: String { "store \(identifier) at \(url.path)" }
}
