internal import CCurl
import Foundation

/// Fetches ECB files over HTTP(S) with the system's libcurl (``CurlTransfer``): bounded by a
/// connect timeout, an idle-read timeout and a body size limit, with a bounded number of
/// retries with back-off on network errors and 5xx answers, and a conditional GET that reports
/// an unchanged file as ``FetchOutcome/notModified(_:)`` without downloading it.
///
/// ```swift
/// let fetcher = FeedFetcher()
/// switch try await fetcher.fetch(FeedSource.ECBFile.ninetyDays.url, validators: lastTime) {
/// case .notModified: print("unchanged")
/// case .fetched(let file): defer { file.remove() }; try read(file.file)
/// }
/// ```
///
/// With the defaults, a server that accepts the connection and never answers is given up after
/// 4 × 20 s of silence and 1 + 2 + 4 s of back-off: 87 s, waiting in `poll` (no CPU); one that
/// trickles is cut after 5 minutes and not tried again. A fetch given a `shouldStop` check ends
/// within about a second of it turning true (``FetchStopped``). TLS
/// certificates are always verified against the system's CA store; redirects are followed
/// only to https. The body goes to a temporary file made when the answer's first byte comes
/// and removed on any failure, never to memory.
public final class FeedFetcher: Sendable {
    /// Seconds to wait for a connection (TCP and TLS) to a server.
    public let connectTimeout: TimeInterval
    /// Seconds a connected server may stay silent (whole seconds, at least 1).
    public let idleTimeout: TimeInterval
    /// How many requests at most (the first and the retries).
    public let attempts: Int
    /// The wait before the first retry, doubled for each later one.
    public let backoff: TimeInterval
    /// The most bytes a body may have: a wrong URL cannot fill the disk.
    public let maximumBytes: Int
    /// Seconds one transfer may take however it trickles (a transfer cut for it is not retried).
    public let transferTimeout: TimeInterval
    /// Where bodies are written while they are read (the system's temporary directory).
    public let directory: URL

    /// The defaults: connect within 10 s, silence of 20 s, 4 attempts, back-off from 1 s.
    public static let defaultConnectTimeout: TimeInterval = 10
    /// See ``defaultConnectTimeout``.
    public static let defaultIdleTimeout: TimeInterval = 20
    /// 64 MiB: eight times the full history.
    public static let defaultMaximumBytes = 64 << 20
    /// 5 minutes: the full history at 30 KB/s.
    public static let defaultTransferTimeout: TimeInterval = 300

    /// A fetcher with these limits.
    public init(
        connectTimeout: TimeInterval = FeedFetcher.defaultConnectTimeout,
        idleTimeout: TimeInterval = FeedFetcher.defaultIdleTimeout,
        attempts: Int = 4, backoff: TimeInterval = 1, maximumBytes: Int = FeedFetcher.defaultMaximumBytes,
        transferTimeout: TimeInterval = FeedFetcher.defaultTransferTimeout,
        directory: URL = FileManager.default.temporaryDirectory
    ) {
        precondition(attempts >= 1, "FeedFetcher: at least one attempt")
        precondition(connectTimeout > 0 && idleTimeout > 0 && maximumBytes > 0, "FeedFetcher: limits must be positive")
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.attempts = attempts
        self.backoff = backoff
        self.maximumBytes = maximumBytes
        self.transferTimeout = transferTimeout
        self.directory = directory
    }

    /// What a request sends as its User-Agent.
    static let userAgent = "ecbrates (Swift; libcurl; +https://www.ecb.europa.eu/stats/eurofxref/)"

    /// Fetches `url`; with `validators`, only if it changed since the copy they describe. Once
    /// `shouldStop` returns true (it is asked about once a second), the fetch ends with
    /// ``FetchStopped``, leaving no file behind.
    public func fetch(
        _ url: URL, validators: HTTPValidators? = nil,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) async throws -> FetchOutcome {
        let headers = [
            validators?.etag.map { "If-None-Match: \($0)" },
            validators?.lastModified.map { "If-Modified-Since: \($0)" },
        ]
        .compactMap { $0 }
        let limits = CurlTransfer.Limits(
            connectTimeout: connectTimeout, idleTimeout: idleTimeout,
            totalTimeout: transferTimeout, maximumBytes: maximumBytes)

        var attempt = 0
        while true {
            attempt += 1
            let file = directory.appendingPathComponent("ecbrates-download-\(UUID().uuidString).xml")
            let failure: FetchError
            do {
                let response = try await Self.onThread {
                    try CurlTransfer.get(
                        url, headers: headers, userAgent: Self.userAgent, limits: limits, into: file,
                        shouldStop: shouldStop)
                }
                if response.status == 304 {
                    try? FileManager.default.removeItem(at: file)
                    return .notModified(validators ?? HTTPValidators())
                }
                if (200..<300).contains(response.status) {
                    return .fetched(try checked(file, from: url, response: response, attempts: attempt))
                }
                try? FileManager.default.removeItem(at: file)
                let reason = response.reason.isEmpty ? Self.reasonPhrase(response.status) : response.reason
                failure = FetchError(
                    url: url, kind: .httpStatus(response.status), attempts: attempt,
                    message: "HTTP \(response.status) \(reason)")
            } catch CurlTransfer.Failure.stopped {
                try? FileManager.default.removeItem(at: file)
                throw FetchStopped(url: url)
            } catch let error as CurlTransfer.Failure {
                try? FileManager.default.removeItem(at: file)
                let (kind, message, retry) = Self.describe(error, url: url, limits: limits)
                failure = FetchError(url: url, kind: kind, attempts: attempt, message: message)
                if !retry { throw failure }
            } catch {
                try? FileManager.default.removeItem(at: file)
                throw error
            }
            guard failure.isTransient, attempt < attempts else { throw failure }
            // The back-off, in steps, so that a stop asked for meanwhile is seen at once.
            let resume = ContinuousClock.now + .milliseconds(Int(backoff * pow(2, Double(attempt - 1)) * 1000))
            while ContinuousClock.now < resume {
                if shouldStop?() == true { throw FetchStopped(url: url) }
                try await Task.sleep(for: min(.milliseconds(50), resume - ContinuousClock.now))
            }
        }
    }

    /// Runs a blocking transfer on a thread of its own, so that no task thread waits on it.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
            let thread = Thread {
                done.resume(with: Result { try body() })
            }
            thread.name = "ecbrates fetch"
            thread.start()
        }
    }

    /// Checks that a fetched body looks like XML, not an HTML page.
    private func checked(
        _ file: URL, from url: URL, response: CurlTransfer.Response, attempts: Int
    ) throws -> FetchedFile {
        let head =
            (try? FileHandle(forReadingFrom: file)).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 512)
            } ?? Data()
        let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let contentType = response.headers["content-type"] ?? "none"
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") {
            try? FileManager.default.removeItem(at: file)
            throw FetchError(
                url: url, kind: .notXML, attempts: attempts,
                message: "the server sent an HTML page (Content-Type \(contentType)), not the XML rates file")
        }
        let validators = HTTPValidators(etag: response.headers["etag"], lastModified: response.headers["last-modified"])
        return FetchedFile(url: url, file: file, validators: validators, byteCount: response.byteCount)
    }

    /// A failed transfer in words: its kind, the message, and whether another attempt may help.
    static func describe(
        _ failure: CurlTransfer.Failure, url: URL, limits: CurlTransfer.Limits
    ) -> (FetchError.Kind, String, Bool) {
        let host = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
        switch failure {
        case .tooLarge(let limit):
            return (
                .tooLarge(limit: limit),
                "the answer is larger than \(limit / (1 << 20)) MiB, the most a rates file may be; nothing was kept",
                false
            )
        case .write(let file, let errno):
            return (
                .temporaryFile, "cannot write the download to \(file.path): \(String(cString: strerror(errno)))", false
            )
        case .idle:
            return (.network, "\(host) sent nothing for \(Self.seconds(limits.idleTimeout)), the idle timeout", true)
        case .tooSlow:
            return (
                .network,
                "\(host) took longer than \(Self.seconds(limits.totalTimeout)) to send the file, the transfer timeout",
                false
            )
        case .stopped:
            return (.network, "stopped", false)
        case .curl(let code, let message, let connected, let osErrno):
            switch code {
            case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue):
                return (.network, "the server's name \(url.host ?? "") did not resolve", true)
            case Int(CURLE_COULDNT_CONNECT.rawValue):
                let reason = osErrno > 0 ? String(cString: strerror(Int32(osErrno))).lowercased() : "refused"
                return (.network, "could not connect to \(host): \(reason)", true)
            case Int(CURLE_OPERATION_TIMEDOUT.rawValue):
                if !connected {
                    return (
                        .network,
                        "could not connect to \(host) within \(Self.seconds(limits.connectTimeout)) (the connect timeout)",
                        true
                    )
                }
                return (
                    .network,
                    "\(host) took longer than \(Self.seconds(limits.totalTimeout)) to send the file (the transfer timeout)",
                    false
                )
            case Int(CURLE_GOT_NOTHING.rawValue), Int(CURLE_RECV_ERROR.rawValue), Int(CURLE_SEND_ERROR.rawValue),
                Int(CURLE_PARTIAL_FILE.rawValue):
                return (.network, "the connection to \(host) dropped (\(message))", true)
            case Int(CURLE_PEER_FAILED_VERIFICATION.rawValue), Int(CURLE_SSL_CONNECT_ERROR.rawValue),
                Int(CURLE_SSL_CACERT_BADFILE.rawValue),
                Int(CURLE_SSL_CERTPROBLEM.rawValue):
                return (.tls, "the TLS connection to \(host) was refused: \(message)", false)
            case Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue), Int(CURLE_TOO_MANY_REDIRECTS.rawValue):
                return (.redirect, "\(message); ecbrates follows at most 5 redirects, and only to https", false)
            default:
                return (.network, "network error: \(message)", true)
            }
        }
    }

    /// `20 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The standard reason phrase of a status, for answers that carry none (HTTP/2).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return ""
        }
    }
}

/// A fetch ended because its caller asked it to stop (``FeedFetcher/fetch(_:validators:shouldStop:)``).
public struct FetchStopped: Error, Sendable, CustomStringConvertible {
    /// The URL that was being fetched.
    public let url: URL

    public var description: String { "\(url.absoluteString): the fetch was stopped" }
}
