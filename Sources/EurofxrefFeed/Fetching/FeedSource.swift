import Foundation

/// Where an ECB rates file comes from: one of the ECB's three files, any URL, a file, or
/// standard input.
///
/// ```swift
/// FeedSource("hist")                      // https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.xml
/// FeedSource("https://example.org/x.xml")
/// FeedSource("-")                         // standard input
/// FeedSource("Fixtures/eurofxref-daily.xml")
/// ```
public enum FeedSource: Sendable, Hashable, CustomStringConvertible {
    /// One of the files the ECB publishes.
    case ecb(ECBFile)
    /// Any http or https URL.
    case url(URL)
    /// A file, by the path the user gave.
    case file(String)
    /// Standard input.
    case standardInput

    /// The ECB's three reference-rate files.
    public enum ECBFile: String, Sendable, CaseIterable {
        /// `eurofxref-daily.xml`: the latest day.
        case daily
        /// `eurofxref-hist-90d.xml`: the last 90 days.
        case ninetyDays = "90d"
        /// `eurofxref-hist.xml`: every day since 1999.
        case history = "hist"

        /// The file's name at the ECB.
        public var fileName: String {
            switch self {
            case .daily: return "eurofxref-daily.xml"
            case .ninetyDays: return "eurofxref-hist-90d.xml"
            case .history: return "eurofxref-hist.xml"
            }
        }

        /// Where the ECB publishes its files.
        public static let ecbBaseURL = URL(string: "https://www.ecb.europa.eu/stats/eurofxref/")!

        /// The file's URL at the ECB.
        public var url: URL { url(base: Self.ecbBaseURL) }

        /// The file's URL under `base` (a mirror of the ECB's folder).
        public func url(base: URL) -> URL {
            base.appendingPathComponent(fileName)
        }
    }

    /// The source an argument names: `daily`, `90d` or `hist`; `-`; an `http(s)://` URL; else a path.
    public init(_ argument: String) {
        if let file = ECBFile(rawValue: argument) {
            self = .ecb(file)
        } else if argument == "-" {
            self = .standardInput
        } else if let url = URL(string: argument), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        {
            self = .url(url)
        } else {
            self = .file(argument)
        }
    }

    /// The URL to fetch, for a remote source.
    public var remoteURL: URL? {
        switch self {
        case .ecb(let file): return file.url
        case .url(let url): return url
        case .file, .standardInput: return nil
        }
    }

    /// The name messages give the source: the path as given, the URL, or `-`.
    public var description: String {
        switch self {
        case .ecb(let file): return file.url.absoluteString
        case .url(let url): return url.absoluteString
        case .file(let path): return path
        case .standardInput: return "-"
        }
    }

    /// Opens a file or standard input for reading.
    ///
    /// Throws ``FeedSourceError`` when the file does not exist or cannot be read; a remote
    /// source is fetched with ``FeedFetcher`` instead.
    public func openLocal() throws -> InputStream {
        switch self {
        case .standardInput:
            guard let stream = InputStream(fileAtPath: "/dev/stdin") else {
                throw FeedSourceError.unreadable(path: "-", reason: "standard input cannot be opened")
            }
            return stream
        case .file(let path):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw FeedSourceError.missing(path: path)
            }
            guard !isDirectory.boolValue else {
                throw FeedSourceError.unreadable(path: path, reason: "it is a directory")
            }
            guard FileManager.default.isReadableFile(atPath: path), let stream = InputStream(fileAtPath: path) else {
                throw FeedSourceError.unreadable(path: path, reason: "permission denied")
            }
            return stream
        case .ecb, .url:
            preconditionFailure("EurofxrefFeed: \(self) is remote; fetch it with FeedFetcher")
        }
    }
}

/// A local source that cannot be opened.
public enum FeedSourceError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// No file at the path.
    case missing(path: String)
    /// A file that exists but cannot be read.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            // A URL of a scheme no fetcher speaks (ftp://, file://) is not a missing file.
            if let colon = path.range(of: "://"), !path[..<colon.lowerBound].contains("/") {
                let scheme = path[..<colon.lowerBound]
                return
                    "\(path): \(scheme):// is not fetched; give an http(s) URL, a file's path, or - for standard input"
            }
            return "\(path): no such file"
        case .unreadable(let path, let reason): return "\(path): cannot be read (\(reason))"
        }
    }

    public var errorDescription: String? { description }
}
