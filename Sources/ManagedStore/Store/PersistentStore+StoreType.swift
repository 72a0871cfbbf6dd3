extension PersistentStore {
    /// A kind of store, as Core Data's `NSPersistentStore.StoreType`: ManagedStore keeps its
    /// stores in SQLite, in a file or in memory.
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        /// The type's name (`SQLite`, `InMemory`, as Core Data's).
        public let rawValue: String
        /// The type named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// An SQLite file.
        public static let sqlite = StoreType(rawValue: "SQLite")
        /// An SQLite database in memory (a description whose URL is `/dev/null`).
        public static let inMemory = StoreType(rawValue: "InMemory")
    }
}
