/// A query asked of a store that does not exist yet.
public struct NoStoreError: Error, Sendable, CustomStringConvertible {
    /// Where the store was looked for.
    public let path: String
    /// True when `path` is a directory, not a store file.
    public let isDirectory: Bool

    /// The error for the missing store at `path` (a directory there, when `isDirectory`).
    public init(path: String, isDirectory: Bool = false) {
        self.path = path
        self.isDirectory = isDirectory
    }

    public var description: String {
        isDirectory
            ? "\(path) is a directory, not a store; give the store file's path (like \(path.hasSuffix("/") ? path : path + "/")rates.sqlite)"
            : "no store at \(path); run 'ecbrates import' first"
    }
}
