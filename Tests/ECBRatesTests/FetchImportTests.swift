import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore
import TestSupport
import Testing

/// Importing from URLs (a loopback server), and the automatic choice of the ECB file.
@Suite struct FetchImportTests {
    @Test func aURLImportedTwiceIsNotModifiedTheSecondTime() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let url = server.url("/ok/eurofxref-hist-90d.xml").absoluteString
        let first = await ecbrates(["import", url], store: store)
        #expect(first.status == 0, "\(first)")
        #expect(first.out.hasPrefix("\(url): 64 days 2026-07-03..2026-09-30, 1856 rates: 1856 new"))
        let second = await ecbrates(["import", url], store: store)
        #expect(second.status == 0)
        #expect(second.out == "\(url): not modified since the last import; nothing to do\n")
        #expect(try await server.requestCount("/ok/eurofxref-hist-90d.xml") == 2)

        let rates = try RatesStore(url: store)
        let context = rates.container.newBackgroundContext()
        let (states, outcomes) = try context.performAndWait {
            (
                try context.fetch(FetchRequest<FeedState>()).map {
                    "\($0.url) \($0.etag != nil) \($0.lastModified != nil)"
                },
                try context.fetch(FetchRequest<ImportRun>(sortBy: [SortDescriptor(\.startedAt)])).map(\.outcomeText)
            )
        }
        #expect(states == ["\(url) true true"])
        #expect(outcomes == ["succeeded", "not modified"])
    }

    @Test func aServerErrorIsRetryLater() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let dir = TemporaryDirectory()
        let run = try CommandRun.process([
            "import", server.url("/status/500").absoluteString, "--store", dir.file("r.sqlite").path,
        ])
        #expect(run.status == 75)
        #expect(
            run.err
                == "Error: \(server.url("/status/500").absoluteString): HTTP 500 Internal Server Error (after 4 attempts)\n"
        )
    }

    /// URLSession's download tasks (swift-corelibs-foundation) leave an empty `UUID.tmp` in the
    /// temporary directory for every request that fails without an answer: one per attempt, per
    /// night, for a cron job whose network is down. Ours leave nothing, whatever the outcome.
    @Test func fetchesLeaveNothingInTheTemporaryDirectory() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let dir = TemporaryDirectory()
        let temporary = dir.file("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let environment = ["TMPDIR": temporary.path]
        let good = server.url("/ok/eurofxref-daily.xml").absoluteString
        async let fetched = Self.process(["import", good, "--store", dir.file("a.sqlite").path], environment)
        async let refused = Self.process(
            ["import", "http://127.0.0.1:9/eurofxref-daily.xml", "--store", dir.file("b.sqlite").path], environment)
        async let html = Self.process(
            ["import", server.url("/html/eurofxref-daily.xml").absoluteString, "--store", dir.file("c.sqlite").path],
            environment)
        let (a, b, c) = try await (fetched, refused, html)
        #expect(a.status == 0, "\(a)")
        #expect(b.status == 75, "\(b)")
        #expect(
            b.err
                == "Error: http://127.0.0.1:9/eurofxref-daily.xml: could not connect to 127.0.0.1:9: connection refused (after 4 attempts)\n"
        )
        #expect(c.status == 65, "\(c)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test func aDownloadThatCannotBeWrittenIsAnIOError() async throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let dir = TemporaryDirectory()
        let missing = dir.file("no-such-directory")
        let url = server.url("/ok/eurofxref-daily.xml").absoluteString
        let run = try CommandRun.process(
            ["import", url, "--store", dir.file("r.sqlite").path], environment: ["TMPDIR": missing.path])
        #expect(run.status == 74, "\(run)")
        #expect(
            run.err.hasPrefix("Error: \(url): cannot write the download to \(missing.path)/ecbrates-download-"),
            "\(run)")
        #expect(try await server.requestCount("/ok/eurofxref-daily.xml") == 1)
    }

    private static func process(_ arguments: [String], _ environment: [String: String]) async throws -> CommandRun {
        try await Task.detached { try CommandRun.process(arguments, environment: environment) }.value
    }

    /// A loopback mirror of the ECB's folder holding the bundled 90-day file and history.
    private static func mirror() throws -> (LoopbackServer, TemporaryDirectory) {
        let root = TemporaryDirectory()
        for file in [FixturePaths.ninetyDays, FixturePaths.history] {
            try FileManager.default.copyItem(at: file, to: root.file(file.lastPathComponent))
        }
        return (try LoopbackServer(serving: root.url), root)
    }

    @Test func autoImportsTheHistoryIntoAnEmptyStore() async throws {
        let (server, files) = try Self.mirror()
        defer { withExtendedLifetime(files) {} }
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        let environment = ["ECBRATES_ECB_URL": server.url("/ok/").absoluteString]
        let run = try await Self.process(["import", "--store", store.path], environment)
        #expect(run.status == 0, "\(run)")
        #expect(try await server.requestCount("/ok/eurofxref-hist.xml") == 1)
        #expect(try await server.requestCount("/ok/eurofxref-hist-90d.xml") == 0)
        #expect(try storedRates(store) == fileRates(FixturePaths.history))
    }

    @Test func autoTakesTheNinetyDayFileWhenItReachesBackToTheNewestDay() async throws {
        let (server, files) = try Self.mirror()
        defer { withExtendedLifetime(files) {} }
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        // The 90-day file begins on 2026-07-03; the store ends on 2026-07-02, the business day before.
        _ = try CommandRun.process(["import", FixturePaths.history.path, "--to", "2026-07-02", "--store", store.path])
        let environment = ["ECBRATES_ECB_URL": server.url("/ok/").absoluteString]
        let run = try await Self.process(["import", "--store", store.path], environment)
        #expect(run.status == 0, "\(run)")
        #expect(!run.out.contains("note:"), "\(run)")
        #expect(try await server.requestCount("/ok/eurofxref-hist-90d.xml") == 1)
        #expect(try await server.requestCount("/ok/eurofxref-hist.xml") == 0)
        #expect(try storedRates(store) == fileRates(FixturePaths.history))
    }

    @Test func autoFetchesTheHistoryWhenTheNinetyDayFileWouldLeaveAHole() async throws {
        let (server, files) = try Self.mirror()
        defer { withExtendedLifetime(files) {} }
        let dir = TemporaryDirectory()
        let store = dir.file("rates.sqlite")
        // The store ends on 2026-06-30: 2026-07-01 and 2026-07-02 are business days the 90-day
        // file (from 2026-07-03) does not have.
        _ = try CommandRun.process(["import", FixturePaths.history.path, "--to", "2026-06-30", "--store", store.path])
        let environment = ["ECBRATES_ECB_URL": server.url("/ok/").absoluteString]
        let run = try await Self.process(["import", "--store", store.path], environment)
        #expect(run.status == 0, "\(run)")
        #expect(
            run.out.hasPrefix(
                "note: the 90-day file begins on 2026-07-03, and the store's newest day is 2026-06-30: the full history was imported instead, so that no day is missing\n"
            ), "\(run)")
        #expect(try await server.requestCount("/ok/eurofxref-hist.xml") == 1)
        #expect(try storedRates(store) == fileRates(FixturePaths.history))
        let status = try CommandRun.process(["status", "--format", "json", "--store", store.path])
        #expect(status.out.contains("\"holes\":[]"), "\(status)")
        // The import log names what was read: the mirror's history, not the ECB's 90-day file.
        #expect(
            status.out.contains("\"source\":\"\(server.url("/ok/eurofxref-hist.xml").absoluteString)\""),
            "\(status.out)")
    }
}
