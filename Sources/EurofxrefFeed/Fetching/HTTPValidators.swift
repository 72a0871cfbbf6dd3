/// What a server said of the last good copy of a file (its `ETag` and `Last-Modified`), so that
/// the next fetch can ask for the file only if it changed.
public struct HTTPValidators: Sendable, Codable, Hashable {
    /// The `ETag` header, as sent.
    public var etag: String?
    /// The `Last-Modified` header, as sent.
    public var lastModified: String?

    /// Validators from a server's headers.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// True when there is nothing to send.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
