import Foundation

/// What a fetch brought.
public enum FetchOutcome: Sendable {
    /// The file has not changed since the copy the validators describe (HTTP 304); nothing to read.
    case notModified(HTTPValidators)
    /// A new copy, in a temporary file the caller reads and then removes.
    case fetched(FetchedFile)
}

/// A file fetched into a temporary file.
public struct FetchedFile: Sendable {
    /// Where it came from.
    public let url: URL
    /// The temporary file that holds it; remove it when done (``remove()``).
    public let file: URL
    /// The validators to send next time.
    public let validators: HTTPValidators
    /// Its size in bytes.
    public let byteCount: Int

    /// Removes the temporary file.
    public func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}
