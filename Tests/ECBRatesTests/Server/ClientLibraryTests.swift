import Foundation
import TestSupport
import Testing

/// Real clients from PyPI against our servers: the official MCP SDK's stdio client against
/// `ecbrates mcp`, and a Frankfurter client library against `ecbrates serve`; each answer
/// checked against the command line and an independent oracle (expat and fractions).
@Suite(.serialized) struct ClientLibraryTests {
    static var seed: Int {
        ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(Int.init) ?? Int.random(in: 1...999_999)
    }

    @Test(arguments: ["auto", "legacy"])
    func theMCPSDKsClientGetsTheAPIsAnswersFromEveryTool(protocol era: String) async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let seed = Self.seed
        // auto: the SDK asks server/discover and speaks 2026-07-28; legacy: initialize, 2025-11-25.
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                PythonTools.serverScript("mcp_check.py"), CommandRun.executable.path, store.path,
                FixturePaths.history.path, "\(seed)", "150", "--protocol", era,
            ])
        #expect(
            run.status == 0, "rebuild with ECBRATES_SEED=\(seed): \(run.out.suffix(3_000)) \(run.err.suffix(2_000))")
        #expect(
            run.out.contains(era == "auto" ? "protocol 2026-07-28" : "protocol 2025-11-25"), "\(run.out.prefix(500))")
        #expect(run.out.hasSuffix("\n") && run.out.split(separator: "\n").last?.hasPrefix("ok ") == true)
    }

    @Test func aFrankfurterClientLibraryPointedAtUsGetsTheECBsRates() async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let served = try await ServedStore()
        let seed = Self.seed
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                PythonTools.serverScript("frankfurter_client_check.py"), served.baseURL, FixturePaths.history.path,
                "\(seed)", "200",
            ])
        #expect(
            run.status == 0, "rebuild with ECBRATES_SEED=\(seed): \(run.out.suffix(3_000)) \(run.err.suffix(2_000))")
        #expect(run.out.split(separator: "\n").last?.hasPrefix("ok ") == true, "\(run.out.suffix(500))")
    }
}
