import Foundation
import TestSupport
import Testing

/// Issue 44: `serve` answers MCP at `/mcp` over Streamable HTTP, from the same tools as `ecbrates
/// mcp`: the official SDK's Streamable HTTP client in both eras, every answer held to the command
/// line's and the oracle's (mcp_check.py --url); the transport's rules and safety, load beside
/// heavy HTTP ranges, and SIGTERM with calls in flight (mcp_http_check.py).
@Suite(.serialized) struct MCPHTTPTests {
    static var seed: Int {
        ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(Int.init) ?? Int.random(in: 1...999_999)
    }

    @Test(arguments: ["auto", "legacy"])
    func theSDKsStreamableHTTPClientGetsTheCommandLinesAnswers(era: String) async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let served = try await ServedStore()
        let seed = Self.seed
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                PythonTools.serverScript("mcp_check.py"), CommandRun.executable.path, served.store.path,
                FixturePaths.history.path, "\(seed)", "120", "--protocol", era, "--url", "\(served.baseURL)/mcp",
            ], timeout: 300)
        #expect(
            run.status == 0, "rebuild with ECBRATES_SEED=\(seed): \(run.out.suffix(3_000)) \(run.err.suffix(2_000))")
        #expect(
            run.out.contains(era == "auto" ? "protocol 2026-07-28" : "protocol 2025-11-25"), "\(run.out.prefix(500))")
        #expect(run.out.split(separator: "\n").last?.hasPrefix("ok ") == true, "\(run.out.suffix(500))")
        let ended = try served.stop()
        #expect(ended.status == 0)
    }

    /// One set of tools, two transports: the same 220 seeded calls to `ecbrates mcp` (stdio) and
    /// to `/mcp` on `serve`, side by side in one era, get identical answers (text, structured
    /// content, isError, JSON-RPC errors) and identical `tools/list`s (mcp_parity_check.py).
    @Test(arguments: ["legacy", "2026-07-28"])
    func stdioAndHTTPAnswerEveryCallAlike(era: String) async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let served = try await ServedStore()
        let seed = Self.seed
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                PythonTools.serverScript("mcp_parity_check.py"), CommandRun.executable.path, served.store.path,
                FixturePaths.history.path, "\(seed)", "220", "\(served.baseURL)/mcp", "--protocol", era,
            ], timeout: 600)
        #expect(
            run.status == 0, "rebuild with ECBRATES_SEED=\(seed): \(run.out.suffix(3_000)) \(run.err.suffix(2_000))")
        let summary = run.out.firstMatch(of: /ok (\d+) calls \((\d+) refused alike\), protocol (\S+)/)
        #expect(summary.map { Int($0.1)! >= 200 } == true, "\(run.out.suffix(500))")
        #expect(summary?.3 == (era == "legacy" ? "2025-11-25" : "2026-07-28"), "\(run.out.suffix(500))")
        #expect(try served.stop().status == 0)
    }

    @Test func originTokenMethodsAndSizeFollowTheSpecification() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let token = directory.file("token")
        try Data("4f1c2a9e0b7d6c5e8a3f\n".utf8).write(to: token)
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [
                PythonTools.serverScript("mcp_http_check.py"), "rules", CommandRun.executable.path, store.path,
                token.path,
            ])
        #expect(run.status == 0 && run.out.hasPrefix("ok: "), "\(run.out) \(run.err.suffix(3_000))")
    }

    @Test func sixtyFourClientsBesideHeavyLoadLeaveHealthzFastAndSIGTERMEndsCallsInFlight() async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [PythonTools.serverScript("mcp_http_check.py"), "load", CommandRun.executable.path, store.path],
            timeout: 300)
        #expect(run.status == 0 && run.out.hasPrefix("ok: "), "\(run.out) \(run.err.suffix(3_000))")
        print(run.out)
    }

    @Test func aTokenFileThatCannotBeReadIsAUsageErrorNamingIt() throws {
        let run = try CommandRun.process([
            "serve", "--listen", "127.0.0.1:0", "--mcp-token-file", "/nonexistent/token", "--store", "/nonexistent.sqlite",
        ])
        #expect(run.status == 64, "\(run)")
        #expect(run.err.contains("'--mcp-token-file <file>' /nonexistent/token: no such file"), "\(run.err)")
    }
}
