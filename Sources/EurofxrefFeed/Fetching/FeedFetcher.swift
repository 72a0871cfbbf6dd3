import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches ECB files over HTTP(S): with a timeout, a bounded number of retries with back-off on
/// network errors and 5xx answers, and a conditional GET that reports an unchanged file as
/// ``FetchOutcome/notModified(_:)`` without downloading it.
///
/// ```swift
/// let fetcher = FeedFetcher()
/// switch try await fetcher.fetch(FeedSource.ECBFile.ninetyDays.url, validators: lastTime) {
/// case .notModified: print("unchanged")
/// case .fetched(let file): defer { file.remove() }; try read(file.file)
/// }
/// ```
///
/// The body goes to a temporary file, not to memory (``FileDownload``).
public final class FeedFetcher: Sendable {
    /// How long one request may take, in seconds.
    public let timeout: TimeInterval
    /// How many requests at most (the first and the retries).
    public let attempts: Int
    /// The wait before the first retry, doubled for each later one.
    public let backoff: TimeInterval

    /// A fetcher with these limits.
    public init(timeout: TimeInterval = 30, attempts: Int = 4, backoff: TimeInterval = 1) {
        precondition(attempts >= 1, "FeedFetcher: at least one attempt")
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
    }

    /// A session's settings: no cache, no cookies kept, this fetcher's timeouts. Each request
    /// gets a session of its own, made when it is sent (an import of local files makes none).
    private func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        return configuration
    }

    /// Fetches `url`; with `validators`, only if it changed since the copy they describe.
    public func fetch(_ url: URL, validators: HTTPValidators? = nil) async throws -> FetchOutcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        request.setValue("ecbrates (Swift; +https://www.ecb.europa.eu/stats/eurofxref/)", forHTTPHeaderField: "User-Agent")
        if let etag = validators?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = validators?.lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }

        var attempt = 0
        while true {
            attempt += 1
            let failure: FetchError
            do {
                let (file, response) = try await FileDownload.run(request, configuration: configuration())
                guard let http = response as? HTTPURLResponse else {
                    try? FileManager.default.removeItem(at: file)
                    throw FetchError(url: url, kind: .network, attempts: attempt, message: "not an HTTP answer")
                }
                let status = http.statusCode
                if status == 304 {
                    try? FileManager.default.removeItem(at: file)
                    return .notModified(validators ?? HTTPValidators())
                }
                if (200..<300).contains(status) {
                    return .fetched(try checked(file, from: url, response: http, attempts: attempt))
                }
                try? FileManager.default.removeItem(at: file)
                failure = FetchError(url: url, kind: .httpStatus(status), attempts: attempt,
                                     message: "HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status).capitalized)")
            } catch let error as FetchError {
                throw error
            } catch let error as FileDownload.WriteFailure {
                throw FetchError(url: url, kind: .temporaryFile, attempts: attempt,
                                 message: "cannot write the download to \(error.file.path): \((error.underlying as NSError).localizedDescription)")
            } catch {
                failure = FetchError(url: url, kind: .network, attempts: attempt, message: Self.describe(error, timeout: timeout))
                if !Self.isRetryable(error) { throw failure }
            }
            guard failure.isTransient, attempt < attempts else { throw failure }
            try await Task.sleep(for: .seconds(backoff * pow(2, Double(attempt - 1))))
        }
    }

    /// Checks that a fetched body looks like XML, not an HTML page.
    private func checked(_ file: URL, from url: URL, response: HTTPURLResponse, attempts: Int) throws -> FetchedFile {
        let handle = try FileHandle(forReadingFrom: file)
        let head = try handle.read(upToCount: 512) ?? Data()
        try? handle.close()
        let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? "none"
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") {
            try? FileManager.default.removeItem(at: file)
            throw FetchError(url: url, kind: .notXML, attempts: attempts,
                             message: "the server sent an HTML page (Content-Type \(contentType)), not the XML rates file")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        let validators = HTTPValidators(etag: response.value(forHTTPHeaderField: "ETag"),
                                        lastModified: response.value(forHTTPHeaderField: "Last-Modified"))
        return FetchedFile(url: url, file: file, validators: validators, byteCount: size)
    }

    static func isRetryable(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        switch error.code {
        case .timedOut, .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet,
             .cannotFindHost, .dnsLookupFailed, .cannotLoadFromNetwork, .resourceUnavailable, .badServerResponse:
            return true
        default:
            return false
        }
    }

    static func describe(_ error: any Error, timeout: TimeInterval) -> String {
        if let error = error as? URLError {
            switch error.code {
            case .timedOut: return "no answer within \(Int(timeout)) s"
            case .cannotConnectToHost: return "could not connect to the server"
            case .cannotFindHost, .dnsLookupFailed: return "the server's name did not resolve"
            case .notConnectedToInternet: return "no network"
            case .networkConnectionLost: return "the connection dropped"
            default: break
            }
        }
        return "network error: \((error as NSError).localizedDescription)"
    }
}
