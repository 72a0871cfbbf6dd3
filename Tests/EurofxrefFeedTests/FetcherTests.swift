import EurofxrefFeed
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetching over HTTP, against a loopback server the test starts; never the internet.
@Suite struct FetcherTests {
    let server: LoopbackServer
    let fetcher = FeedFetcher(connectTimeout: 2, idleTimeout: 2, attempts: 3, backoff: 0.05)

    init() throws {
        server = try LoopbackServer(serving: FixturePaths.fixtures)
    }

    @Test func aFetchedFileReadsLikeTheLocalOne() async throws {
        guard case .fetched(let file) = try await fetcher.fetch(server.url("/ok/eurofxref-hist-90d.xml")) else {
            Issue.record("expected a fetched file")
            return
        }
        defer { file.remove() }
        #expect(file.byteCount == (try Data(contentsOf: FixturePaths.ninetyDays)).count)
        #expect(file.validators.etag?.hasPrefix("\"") == true)
        #expect(file.validators.lastModified != nil)
        let summary = try EurofxrefReader(source: file.url.absoluteString).validate(
            try #require(InputStream(url: file.file)))
        #expect(summary.days == 64)
        file.remove()
        #expect(!FileManager.default.fileExists(atPath: file.file.path))
    }

    @Test func anUnchangedFileIsNotModifiedByETagOrByDate() async throws {
        let url = server.url("/ok/eurofxref-daily.xml")
        guard case .fetched(let first) = try await fetcher.fetch(url) else {
            Issue.record("expected a fetched file")
            return
        }
        first.remove()
        let byETag = try await fetcher.fetch(url, validators: HTTPValidators(etag: first.validators.etag))
        guard case .notModified = byETag else {
            Issue.record("expected not modified by ETag, got \(byETag)")
            return
        }
        let byDate = try await fetcher.fetch(
            url, validators: HTTPValidators(lastModified: first.validators.lastModified))
        guard case .notModified = byDate else {
            Issue.record("expected not modified by date, got \(byDate)")
            return
        }
        let changed = try await fetcher.fetch(url, validators: HTTPValidators(etag: "\"stale\""))
        guard case .fetched(let again) = changed else {
            Issue.record("a stale ETag must fetch the file")
            return
        }
        again.remove()
    }

    @Test func serverErrorsAreRetriedWithBackOff() async throws {
        let path = "/flaky/2/eurofxref-daily.xml"
        guard case .fetched(let file) = try await fetcher.fetch(server.url(path)) else {
            Issue.record("expected the third attempt to succeed")
            return
        }
        file.remove()
        #expect(try await server.requestCount(path) == 3)
    }

    @Test func retriesAreBounded() async throws {
        let path = "/flaky/9/eurofxref-daily.xml"
        do {
            _ = try await fetcher.fetch(server.url(path))
            Issue.record("expected a failure")
        } catch let error as FetchError {
            #expect(error.kind == .httpStatus(503))
            #expect(error.isTransient)
            #expect(
                error.description
                    == "\(server.url(path).absoluteString): HTTP 503 Service Unavailable (after 3 attempts)")
        }
        #expect(try await server.requestCount(path) == 3)
    }

    @Test func aClientErrorIsNotRetried() async throws {
        let path = "/status/404"
        do {
            _ = try await fetcher.fetch(server.url(path))
            Issue.record("expected a failure")
        } catch let error as FetchError {
            #expect(error.kind == .httpStatus(404))
            #expect(!error.isTransient)
            #expect(error.description == "\(server.url(path).absoluteString): HTTP 404 Not Found")
        }
        #expect(try await server.requestCount(path) == 1)
    }

    @Test func anHTMLPageWhereXMLWasExpectedIsAnError() async throws {
        do {
            _ = try await fetcher.fetch(server.url("/html/x"))
            Issue.record("expected a failure")
        } catch let error as FetchError {
            #expect(error.kind == .notXML)
            #expect(
                error.description
                    == "\(server.url("/html/x").absoluteString): the server sent an HTML page (Content-Type text/html), not the XML rates file"
            )
        }
    }

    @Test func aSlowServerTimesOutAndIsRetried() async throws {
        let quick = FeedFetcher(connectTimeout: 1, idleTimeout: 1, attempts: 2, backoff: 0.05)
        let path = "/slow/3/eurofxref-daily.xml"
        do {
            _ = try await quick.fetch(server.url(path))
            Issue.record("expected a timeout")
        } catch let error as FetchError {
            #expect(error.kind == .network)
            #expect(error.isTransient)
            #expect(
                error.description
                    == "\(server.url(path).absoluteString): 127.0.0.1:\(server.port) sent nothing for 1 s, the idle timeout (after 2 attempts)"
            )
        }
    }

    @Test func aClosedPortIsANetworkError() async throws {
        let closed = URL(string: "http://127.0.0.1:9/eurofxref-daily.xml")!
        do {
            _ = try await fetcher.fetch(closed)
            Issue.record("expected a failure")
        } catch let error as FetchError {
            #expect(error.kind == .network)
            #expect(
                error.description
                    == "http://127.0.0.1:9/eurofxref-daily.xml: could not connect to 127.0.0.1:9: connection refused (after 3 attempts)"
            )
        }
    }
}

/// The fetcher's bounds: TLS verified, redirects only to https, a body size limit.
@Suite struct FetchBoundsTests {
    @Test func aCertificateNoCAVouchesForIsRefusedAndNotRetried() async throws {
        let dir = TemporaryDirectory()
        try FileManager.default.copyItem(at: FixturePaths.daily, to: dir.file("eurofxref-daily.xml"))
        let server = try LoopbackServer(tlsServing: dir.url)
        let url = server.url("/eurofxref-daily.xml")
        let downloads = TemporaryDirectory()
        do {
            _ = try await FeedFetcher(attempts: 3, backoff: 0.05, directory: downloads.url).fetch(url)
            Issue.record("a self-signed certificate was accepted")
        } catch let error as FetchError {
            #expect(error.kind == .tls)
            #expect(error.isTransient)
            #expect(error.attempts == 1)
            #expect(
                error.description.hasPrefix(
                    "\(url.absoluteString): the TLS connection to 127.0.0.1:\(server.port) was refused: SSL certificate problem: self"
                ), "\(error)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: downloads.url.path).isEmpty, "no temporary file left")
    }

    @Test func aRedirectToPlainHTTPIsRefused() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let url = server.url("/redirect-http/eurofxref-daily.xml")
        do {
            _ = try await FeedFetcher(attempts: 3, backoff: 0.05).fetch(url)
            Issue.record("a redirect to http was followed")
        } catch let error as FetchError {
            #expect(error.kind == .redirect)
            #expect(!error.isTransient)
            #expect(
                error.description.hasSuffix("; ecbrates follows at most 5 redirects, and only to https"), "\(error)")
        }
        #expect(try await server.requestCount("/ok/eurofxref-daily.xml") == 0)
    }

    @Test func endlessRedirectsStopAtFive() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        do {
            _ = try await FeedFetcher(attempts: 1).fetch(server.url("/redirect-loop/0"))
            Issue.record("expected a failure")
        } catch let error as FetchError {
            #expect(error.kind == .redirect)
        }
        #expect(try await server.requestCount("/redirect-loop/0") == 1)
    }

    @Test func aServerThatStallsMidBodyIsGivenUpAfterTheIdleTimeout() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let dir = TemporaryDirectory()
        let url = server.url("/stall/eurofxref-hist.xml")
        do {
            _ = try await FeedFetcher(connectTimeout: 2, idleTimeout: 1, attempts: 2, backoff: 0.05, directory: dir.url)
                .fetch(url)
            Issue.record("a stalled body was accepted")
        } catch let error as FetchError {
            #expect(
                error.description
                    == "\(url.absoluteString): 127.0.0.1:\(server.port) sent nothing for 1 s, the idle timeout (after 2 attempts)"
            )
        }
        // No bound on the time here: the suites run beside each other and can keep this test's
        // task waiting for a thread; SilentServerTests times the same as a process.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty, "no partial file left")
    }

    @Test func aTricklingServerIsCutAtTheTransferTimeoutAndNotRetried() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let url = server.url("/trickle/eurofxref-daily.xml")
        do {
            _ = try await FeedFetcher(idleTimeout: 5, attempts: 3, backoff: 0.05, transferTimeout: 2).fetch(url)
            Issue.record("a trickle of 5 bytes a second finished within 2 s")
        } catch let error as FetchError {
            #expect(
                error.description
                    == "\(url.absoluteString): 127.0.0.1:\(server.port) took longer than 2 s to send the file, the transfer timeout"
            )
        }
        // The whole trickle would take about 7 minutes; it was cut, and not tried again.
        #expect(try await server.requestCount("/trickle/eurofxref-daily.xml") == 1)
    }

    @Test func aStopAskedForEndsTheFetchWithinASecond() async throws {
        let listener = try SilentListener()
        let url = URL(string: "http://127.0.0.1:\(listener.port)/eurofxref-daily.xml")!
        let stopAt = ContinuousClock.now + .milliseconds(300)
        do {
            _ = try await FeedFetcher(idleTimeout: 30).fetch(url, shouldStop: { ContinuousClock.now > stopAt })
            Issue.record("a silent server answered")
        } catch let stopped as FetchStopped {
            #expect(stopped.url == url)
        }
        // Without the stop, the silent server would end the fetch with a FetchError after 4 × 30 s.
    }

    @Test func aBodyLargerThanTheLimitIsRefusedAndNothingIsKept() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let dir = TemporaryDirectory()
        let fetcher = FeedFetcher(attempts: 2, maximumBytes: 1 << 20, directory: dir.url)
        do {
            _ = try await fetcher.fetch(server.url("/ok/eurofxref-hist.xml"))
            Issue.record("an 8 MB body passed a 1 MiB limit")
        } catch let error as FetchError {
            #expect(error.kind == .tooLarge(limit: 1 << 20))
            #expect(
                error.description.hasSuffix(
                    ": the answer is larger than 1 MiB, the most a rates file may be; nothing was kept"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty, "no temporary file left")
        #expect(try await server.requestCount("/ok/eurofxref-hist.xml") == 1)
    }
}

/// Naming sources.
@Suite struct FeedSourceTests {
    @Test func argumentsNameTheirSources() {
        #expect(FeedSource("daily") == .ecb(.daily))
        #expect(
            FeedSource("90d").remoteURL?.absoluteString
                == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml")
        #expect(
            FeedSource("hist").remoteURL?.absoluteString
                == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.xml")
        #expect(FeedSource("-") == .standardInput)
        #expect(FeedSource("https://example.org/rates.xml") == .url(URL(string: "https://example.org/rates.xml")!))
        #expect(FeedSource("Fixtures/eurofxref-daily.xml") == .file("Fixtures/eurofxref-daily.xml"))
        #expect(FeedSource("ftp://example.org/x") == .file("ftp://example.org/x"))
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: FeedSourceError.missing(path: "/nonexistent/rates.xml")) {
            _ = try FeedSource("/nonexistent/rates.xml").openLocal()
        }
        #expect("\(FeedSourceError.missing(path: "x.xml"))" == "x.xml: no such file")
    }
}
