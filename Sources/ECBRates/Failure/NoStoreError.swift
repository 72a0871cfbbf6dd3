/// A query asked of a store that does not exist yet.
public struct NoStoreError: Error, Sendable, CustomStringConvertible {
    /// Where the store was looked for.
    public let path: String

    /// The error for the missing store at `path`.
    public init(path: String) { self.path = path }

    public var description: String { "no store at \(path); run 'ecbrates import' first" }
}
