import Foundation
import ManagedStore

/// The conditional-GET state of a URL: the validators of the last good fetch.
public final class FeedState: ManagedObject {
    /// The URL, as fetched.
    @Attribute public var url: String
    /// The `ETag` of the last good fetch.
    @Attribute public var etag: String?
    /// The `Last-Modified` of the last good fetch.
    @Attribute public var lastModified: String?
    /// When the URL was last fetched or found unchanged.
    @Attribute public var checkedAt: Date
}
