import Foundation

/// A fetch that failed: the URL, what went wrong, and whether trying later may help.
public struct FetchError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No answer, or a broken connection (after the retries).
        case network
        /// An answer with a status that is not a success (after the retries, for 5xx and 429).
        case httpStatus(Int)
        /// A successful answer that is not an XML file (an HTML page, say).
        case notXML
        /// The answer could not be written to a temporary file (the disk is full, say).
        case temporaryFile
        /// The TLS connection failed: a certificate that does not verify, a broken handshake.
        case tls
        /// A redirect to a URL that is not https, or too many redirects.
        case redirect
        /// The answer is larger than the fetcher's limit.
        case tooLarge(limit: Int)
    }

    /// The URL fetched.
    public let url: URL
    /// What went wrong.
    public let kind: Kind
    /// How many requests were made.
    public let attempts: Int
    /// What went wrong, in words.
    public let message: String

    /// True when the trouble may pass (network errors, 5xx, 429): worth trying again later.
    public var isTransient: Bool {
        switch kind {
        case .network: return true
        case .httpStatus(let status): return status >= 500 || status == 429 || status == 408
        case .tls: return true  // an intercepting proxy, a certificate being renewed: try later
        case .notXML, .temporaryFile, .redirect, .tooLarge: return false
        }
    }

    public var description: String {
        "\(url.absoluteString): \(message)" + (attempts > 1 ? " (after \(attempts) attempts)" : "")
    }

    public var errorDescription: String? { description }
}
