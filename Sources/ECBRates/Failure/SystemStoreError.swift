import Foundation

/// An import that would write the system-wide store (``StoreLocation/Origin/system``), which
/// this user may read but not write: the package's timer keeps it. Said so, with the way to a
/// store of one's own, rather than the bare "read-only".
public struct SystemStoreError: Error, Sendable, CustomStringConvertible {
    /// The system-wide store.
    public let systemStore: String
    /// Where the user's own store would be.
    public let userStore: String

    /// The error for `location` (a ``StoreLocation`` whose origin is `.system`).
    public init(_ location: StoreLocation) {
        systemStore = location.url.path
        userStore = location.userStore.path
    }

    public var description: String {
        "the system-wide store \(systemStore) is read-only for you (the ecbrates-import timer keeps it up to date); "
            + "to import into a store of your own, give --store or set ECBRATES_STORE "
            + "('ecbrates import --store \(userStore)' makes your default store, which every command then uses)"
    }
}
