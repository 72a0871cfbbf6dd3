import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// A server that accepts the connection and never answers: the import gives up within the
/// timeouts and retries it documents, waiting without using the CPU, then exits 75 naming the
/// host and what timed out. (With the defaults, 4 × 20 s of silence and 1 + 2 + 4 s of back-off:
/// 87 s; here the idle timeout is 1 s, to keep the test short.)
@Suite struct SilentServerTests {
    @Test func aSilentServerIsGivenUpWithinTheTimeoutsWithoutBurningCPU() throws {
        let listener = try SilentListener()
        let dir = TemporaryDirectory()
        let url = "http://127.0.0.1:\(listener.port)/eurofxref-hist-90d.xml"
        let (run, seconds) = try SpawnedProcess.timed(
            CommandRun.executable, ["import", url, "--idle-timeout", "1", "--store", dir.file("rates.sqlite").path],
            timeout: 60)
        #expect(run.status == 75, "\(run)")
        #expect(
            run.err
                == "Error: \(url): 127.0.0.1:\(listener.port) sent nothing for 1 s, the idle timeout (after 4 attempts)\n"
        )
        // 4 attempts of 1 s of silence (checked about once a second) and 1 + 2 + 4 s of back-off: 11 s.
        #expect(seconds >= 10 && seconds < 16, "\(seconds) s")
        #expect(run.cpuSeconds < 1, "\(run.cpuSeconds) s of CPU while waiting")
    }

    @Test func aServerThatStallsMidFileIsGivenUpAfterTheIdleTimeout() throws {
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let dir = TemporaryDirectory()
        let url = server.url("/stall/eurofxref-hist.xml").absoluteString
        let (run, seconds) = try SpawnedProcess.timed(
            CommandRun.executable, ["import", url, "--idle-timeout", "1", "--store", dir.file("rates.sqlite").path],
            timeout: 60)
        #expect(run.status == 75, "\(run)")
        #expect(
            run.err
                == "Error: \(url): 127.0.0.1:\(server.port) sent nothing for 1 s, the idle timeout (after 4 attempts)\n"
        )
        #expect(seconds >= 10 && seconds < 16, "\(seconds) s")
    }

    @Test func aForgedCertificateIsRefusedWithExitSeventyFiveNamingTheReason() throws {
        let files = TemporaryDirectory()
        try FileManager.default.copyItem(at: FixturePaths.daily, to: files.file("eurofxref-daily.xml"))
        let server = try LoopbackServer(tlsServing: files.url)
        let dir = TemporaryDirectory()
        let url = server.url("/eurofxref-daily.xml").absoluteString
        let run = try SpawnedProcess.run(
            CommandRun.executable, ["import", url, "--store", dir.file("rates.sqlite").path], timeout: 60)
        #expect(run.status == 75, "\(run)")
        #expect(
            run.err.hasPrefix(
                "Error: \(url): the TLS connection to 127.0.0.1:\(server.port) was refused: SSL certificate problem: self"
            ), "\(run.err)")
        let stored =
            FileManager.default.fileExists(atPath: dir.file("rates.sqlite").path)
            ? try StoreProbe(url: dir.file("rates.sqlite")).ratesByDay() : [:]
        #expect(stored.isEmpty, "nothing stored from a refused connection")
    }

    @Test func theDefaultsAreDocumentedAndBoundedUnderTwoMinutes() throws {
        let help = try CommandRun.process(["help", "import"])
        #expect(help.out.contains("--connect-timeout <seconds>"))
        #expect(help.out.contains("Give up on a server silent this long, then retry, 4 attempts in all (default: 20)."))
        // The worst case of the defaults: every attempt silent until the idle timeout, and the
        // back-off between them, under two minutes.
        let fetcher = FeedFetcher()
        let backoff = (0..<(fetcher.attempts - 1)).map { fetcher.backoff * pow(2, Double($0)) }.reduce(0, +)
        #expect(Double(fetcher.attempts) * fetcher.idleTimeout + backoff == 87)
    }
}
