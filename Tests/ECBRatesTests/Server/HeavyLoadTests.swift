import Foundation
import TestSupport
import Testing

/// Issue 37: heavy questions cannot starve the rest. Under 64 clients asking distinct one-year
/// ranges of every currency, the ranges answered at once are bounded (`--max-heavy`, each on a
/// thread beside those serving connections), the rest get 503 with Retry-After, `/healthz`
/// stays fast, and SIGTERM ends the server within seconds; and the answer cache, bounded by
/// bytes, keeps the server's memory under the documented ceiling.
@Suite(.serialized) struct HeavyLoadTests {
    /// `/healthz`'s latencies, in seconds, probed every 50 ms while `body` runs (by a Python
    /// client in another process: this test's scheduling does not count).
    static func probeHealth(port: Int, seconds: Double) throws -> SpawnedProcess.Running {
        let script = """
            import http.client, sys, time
            port, until = int(sys.argv[1]), time.monotonic() + float(sys.argv[2])
            while time.monotonic() < until:
                started = time.monotonic()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("GET", "/healthz")
                response = connection.getresponse()
                response.read()
                print(response.status, time.monotonic() - started, flush=True)
                connection.close()
                time.sleep(0.05)
            """
        return try SpawnedProcess.Running(PythonTools.system, ["-c", script, "\(port)", "\(seconds)"])
    }

    @Test func heavyRangesAreBoundedHealthStaysFastAndSIGTERMStopsPromptly() async throws {
        let served = try await ServedStore(["--max-heavy", "2"])
        let probe = try Self.probeHealth(port: served.port, seconds: 8)
        let load = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/wrk"),
            [
                "-t2", "-c64", "-d8s", "--timeout", "10s", "-s", PythonTools.serverScript("heavy_ranges.lua"),
                served.baseURL,
            ], timeout: 60)
        let probed = try probe.wait(timeout: 60)
        #expect(load.status == 0, "\(load.err)")
        var statuses: [Int: Int] = [:]
        for match in load.out.matches(of: /status (\d+) (\d+)/) { statuses[Int(match.1)!] = Int(match.2)! }
        #expect(Set(statuses.keys).isSubset(of: [200, 503]), "only 200 and the documented 503: \(statuses)")
        #expect((statuses[200] ?? 0) > 0 && (statuses[503] ?? 0) > 0, "\(statuses)\n\(load.out)")
        #expect(load.out.contains("without-retry-after 0\n"), "every 503 says when to retry: \(load.out)")
        #expect(!load.out.contains("Socket errors"), "\(load.out)")
        let latencies = probed.out.split(separator: "\n").compactMap { line -> Double? in
            let parts = line.split(separator: " ")
            return parts.count == 2 && parts[0] == "200" ? Double(parts[1]) : nil
        }.sorted()
        #expect(latencies.count >= 60, "the probe got \(latencies.count) answers: \(probed.out.suffix(300))")
        let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        #expect(p99 < 0.05, "/healthz p99 \(p99) s under load (median \(latencies[latencies.count / 2]))")

        // SIGTERM while ranges are being answered: the server ends within 5 s, exit 0.
        let again = try SpawnedProcess.Running(
            URL(fileURLWithPath: "/usr/bin/wrk"),
            ["-t2", "-c64", "-d20s", "-s", PythonTools.serverScript("heavy_ranges.lua"), served.baseURL])
        try await Task.sleep(for: .seconds(2))
        let signalled = ContinuousClock.now
        served.process.kill(SIGTERM)
        let ended = try served.process.wait(timeout: 120)
        let took = (ContinuousClock.now - signalled).seconds
        again.kill(SIGKILL)
        _ = try? again.wait()
        #expect(ended.status == 0, "\(ended.err.suffix(500))")
        #expect(took < 5, "SIGTERM took \(took) s")
    }

    /// 1,000 distinct full-history ranges (3 MB each; 4 clients, retrying on 503) against a server
    /// with the default cache: its peak memory stays under the documented ceiling, 64 MiB +
    /// --cache-bytes + --max-heavy × 32 MiB (here 192 MiB). The release binary (scripts/test
    /// builds it): the debug one takes 1.4 s an answer.
    @Test func memoryStaysUnderTheCeilingAfterManyFullHistoryRanges() async throws {
        let release = FixturePaths.root.appendingPathComponent(".build/release/ecbrates")
        try #require(
            FileManager.default.isExecutableFile(atPath: release.path),
            "no release binary at \(release.path): run scripts/build-release (scripts/test does)")
        let served = try await ServedStore(executable: release)
        let script = """
            import http.client, sys, threading, time
            port, failures = int(sys.argv[1]), []
            def client(first):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                for amount in range(first, 1001, 4):
                    while True:
                        connection.request("GET", f"/1999-01-04..2026-09-30?amount={amount}")
                        response = connection.getresponse()
                        body = response.read()
                        if response.status != 503:
                            break
                        time.sleep(float(response.getheader("Retry-After", "1")) / 4)
                    if response.status != 200 or len(body) < 2_000_000:
                        failures.append((amount, response.status, len(body)))
            threads = [threading.Thread(target=client, args=(first,)) for first in range(1, 5)]
            for thread in threads: thread.start()
            for thread in threads: thread.join()
            print("failures", failures)
            """
        let run = try SpawnedProcess.run(PythonTools.system, ["-c", script, "\(served.port)"], timeout: 1_200)
        #expect(run.out == "failures []\n", "\(run.out)\(run.err)")
        let status = try String(contentsOfFile: "/proc/\(served.process.pid)/status", encoding: .utf8)
        let peak = try #require(
            status.firstMatch(of: /VmHWM:\s+(\d+) kB/).map { Double($0.1)! / 1024 }, "\(status)")
        #expect(peak < 192, "peak \(peak) MiB, over the ceiling of 192 MiB")
        let metrics = try RawHTTP.get("/metrics", port: served.port).body
        let cached = try #require(
            metrics.firstMatch(of: /ecbrates_answer_cache_bytes (\d+(\.\d+)?)/).map { Double($0.1)! })
        #expect(cached <= 64 * 1_048_576, "the cache is charged \(cached) bytes")
    }
}
