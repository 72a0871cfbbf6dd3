import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

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
        #expect(ended.status == 0, "\(ended.err)")
        #expect(
            ended.err.contains("refresh: \(server.url("/ok/eurofxref-hist-90d.xml").absoluteString): 64 days"),
            "\(ended.err)")
    }

    @Test func whileTheDayIsNotOutItTriesAgainWithBackOffUntilItIs() async throws {
        let directory = TemporaryDirectory(), mirror = TemporaryDirectory()
        let store = try Self.storeADayBehind(in: directory)
        try Self.writeNinetyDays(to: mirror, late: true)
        let server = try LoopbackServer(serving: mirror.url)
        let served = try await ServedStore(
            ["--refresh", "auto"], store: store,
            environment: [
                "ECBRATES_ECB_URL": server.url("/ok/").absoluteString, "ECBRATES_REFRESH_RETRY_SECONDS": "0.3",
            ])
        // The file lacks the day: the refresh says so and waits, doubling its wait.
        let process = served.process
        let waited = Waiting.until(timeout: .seconds(60)) {
            process.errorSoFar.components(separatedBy: "are not in the store yet").count > 3
        }
        #expect(waited, "\(process.errorSoFar)")
        #expect(
            process.errorSoFar.contains("refresh: the rates of 2026-09-30 are not in the store yet; next try in 0 s"))
        #expect(try RawHTTP.get("/latest?symbols=USD", port: served.port).body.contains(#""date":"2026-09-29""#))
        // The ECB publishes: a next try imports the day, and the server answers with it.
        try Self.writeNinetyDays(to: mirror, late: false)
        let imported = try Waiting.until(timeout: .seconds(60)) {
            try RawHTTP.get("/latest?symbols=USD", port: served.port).body.contains(#""date":"2026-09-30""#)
        }
        #expect(imported, "\(process.errorSoFar)")
        let ended = try served.stop()
        #expect(ended.status == 0, "\(ended.err)")
        #expect(ended.err.contains("64 days 2026-07-03..2026-09-30, 1856 rates: 29 new"), "\(ended.err)")
    }
}
