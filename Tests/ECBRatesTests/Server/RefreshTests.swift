import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ECBRatesServer

/// `serve --refresh auto`: the server imports the day that is due, in its own process, and
/// keeps trying while the ECB has not published it.
@Suite(.serialized) struct RefreshTests {
    /// 2026-10-01T12:00Z is before that day's publication: the day due is 2026-09-30.
    static let now = "2026-10-01T12:00:00Z"

    /// A store holding the history through 2026-09-29, a day behind.
    static func storeADayBehind(in directory: TemporaryDirectory) throws -> URL {
        let store = directory.file("rates.sqlite")
        let run = try CommandRun.process([
            "import", FixturePaths.history.path, "--to", "2026-09-29", "--store", store.path,
        ])
        #expect(run.status == 0, "\(run)")
        return store
    }

    /// The bundled 90-day file, without its newest day (2026-09-30) when `late`: the ECB late.
    static func writeNinetyDays(to directory: TemporaryDirectory, late: Bool) throws {
        var text = try String(contentsOf: FixturePaths.ninetyDays, encoding: .utf8)
        if late {
            text = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains(#"time="2026-09-30""#) }.joined(separator: "\n")
        }
        try Data(text.utf8).write(to: directory.file("eurofxref-hist-90d.xml"))
    }

    @Test func theServerImportsTheDayDueAndAnswersWithItWithoutARestart() async throws {
        let directory = TemporaryDirectory(), mirror = TemporaryDirectory()
        let store = try Self.storeADayBehind(in: directory)
        try Self.writeNinetyDays(to: mirror, late: false)
        let server = try LoopbackServer(serving: mirror.url)
        let served = try await ServedStore(
            ["--refresh", "auto"], store: store,
            environment: ["ECBRATES_ECB_URL": server.url("/ok/").absoluteString])
        let got = try Waiting.until(timeout: .seconds(30)) {
            try RawHTTP.get("/latest?symbols=USD", port: served.port).body.contains(#""date":"2026-09-30""#)
        }
        #expect(got, "\(served.process.errorSoFar)")
        let latest = try RawHTTP.get("/latest?symbols=USD", port: served.port)
        #expect(latest.body == #"{"amount":1,"base":"EUR","date":"2026-09-30","rates":{"USD":1.1355}}"# + "\n")
        #expect(try await server.requestCount("/ok/eurofxref-hist-90d.xml") == 1)
        let ended = try served.stop()
        #expect(ended.status == 0)
        #expect(
            ended.err.contains("refresh: \(server.url("/ok/eurofxref-hist-90d.xml").absoluteString): 64 days"),
            "\(ended.err)")
    }

    @Test func whileTheDayIsNotOutItTriesAgainWithBackOffUntilItIs() async throws {
        let directory = TemporaryDirectory(), mirror = TemporaryDirectory()
        let storeURL = try Self.storeADayBehind(in: directory)
        try Self.writeNinetyDays(to: mirror, late: true)
        let server = try LoopbackServer(serving: mirror.url)
        let store = try RatesStore(url: storeURL, mergingIntoViewContext: true)
        let stop = ImportInterruption()
        let lines = LogLines()
        let now = try #require(ISO8601DateFormatter().date(from: Self.now))
        let refresh = ScheduledRefresh(
            store: store, clock: { now }, ecbBaseURL: server.url("/ok/"), interruption: stop, firstRetry: 0.2,
            longestRetry: 0.4, log: { lines.append($0) })
        let running = Task { await refresh.run() }
        // The file lacks the day: the refresh says so and waits, doubling its wait.
        let waited = try await Waiting.until(timeout: .seconds(30)) {
            await Task.yield()
            return lines.text.components(separatedBy: "not in the store yet").count > 3
        }
        #expect(waited, "\(lines.text)")
        #expect(lines.text.contains("next try in 0 s"))
        // The ECB publishes: the next try imports the day.
        try Self.writeNinetyDays(to: mirror, late: false)
        let imported = try await Waiting.until(timeout: .seconds(30)) {
            await Task.yield()
            return try store.readSnapshot(now: now) { try $0.status() }.value.lastDay == CalendarDay("2026-09-30")
        }
        #expect(imported, "\(lines.text)")
        stop.request(signal: SIGTERM)
        await running.value
        #expect(lines.text.contains("64 days 2026-07-03..2026-09-30, 1856 rates: 29 new"), "\(lines.text)")
    }
}

/// Lines a refresh logged, from its threads.
private final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var text: String { lines.withLock { $0.joined() } }
}
