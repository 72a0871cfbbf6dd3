import Foundation
import TestSupport
import Testing

/// Every door's JSON against the JSON Schemas of `AnswerSchema` (what MCP's `outputSchema` and the
/// OpenAPI document publish): `answer_schema_check.py` reads the schemas from the Swift source
/// (their shared parts interpolated, checked to agree), asks seeded random questions of every
/// command on the command line, of `serve`'s `/api/` and of `mcp`'s tools, and validates each
/// answer and each error with the `jsonschema` package, with what a schema cannot say besides.
@Suite(.serialized) struct AnswerSchemaTests {
    static var seed: Int {
        ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(Int.init) ?? Int.random(in: 1...999_999)
    }

    /// A moment when the full history (its last day 2026-09-30) is up to date.
    static let fresh = "2026-10-01T10:00:00Z"

    /// A moment when 19 business days' rates are out that the full history lacks.
    static let stale = "2026-10-28T12:00:00Z"

    /// The script's report of `count` questions (seeded `seed`) asked at `now`, on a copy of the
    /// full history, through the three doors.
    static func check(count: Int, now: String, seed: Int) async throws -> SpawnedProcess {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        return try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/answer_schema_check.py").path,
                CommandRun.executable.path, store.path, "--count", "\(count)", "--seed", "\(seed)", "--now", now,
                "--api", "--mcp",
            ], timeout: 600)
    }

    /// Its summary: every question answered or refused validly through each door, no failure
    /// (`answer_schema_check: 400 queries (…): cli 315 answers, 85 errors; api …; mcp …; 0 failures, 31 s`).
    static func expectAllValid(_ run: SpawnedProcess, count: Int, seed: Int) throws {
        let failed = "rerun with ECBRATES_SEED=\(seed): \(run.out.suffix(4_000)) \(run.err.suffix(2_000))"
        #expect(run.status == 0, "\(failed)")
        let summary = try #require(
            run.out.split(separator: "\n").last { $0.hasPrefix("answer_schema_check: ") }, "\(failed)")
        let queries = try #require(summary.firstMatch(of: /: (\d+) queries/), "\(summary)")
        let failures = try #require(summary.firstMatch(of: /; (\d+) failures/), "\(summary)")
        #expect(Int(queries.1) == count && Int(failures.1) == 0, "\(failed)")
        // Every question is a command, an /api/ endpoint and an MCP tool: each door answered all.
        var doors: [String: (answers: Int, errors: Int)] = [:]
        for door in summary.matches(of: /(cli|api|mcp) (\d+) answers, (\d+) errors/) {
            doors[String(door.1)] = (Int(door.2)!, Int(door.3)!)
        }
        #expect(doors.mapValues { $0.answers + $0.errors } == ["cli": count, "api": count, "mcp": count], "\(summary)")
        #expect((doors["cli"]?.answers ?? 0) >= count / 2, "mostly refusals: \(summary)")
    }

    /// The warnings the run's answers carried (`warnings: stale-store 12, …`, or `none`).
    static func warnings(_ run: SpawnedProcess) -> String {
        run.out.split(separator: "\n").last { $0.hasPrefix("warnings: ") }.map(String.init) ?? ""
    }

    /// An up-to-date store of the full history: answers and refusals of every kind. (An answer as of
    /// a moment after the store's import, by the real clock its log keeps, may say it is stale.)
    @Test func answersOfTheFullHistoryMatchTheirSchemasThroughEveryDoor() async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let seed = Self.seed
        let run = try await Self.check(count: 400, now: Self.fresh, seed: seed)
        try Self.expectAllValid(run, count: 400, seed: seed)
    }

    /// A stale store: its object answers carry a stale-store warning (in `warnings`, on standard
    /// error, in `/api/`'s and MCP's JSON), still valid against their schemas.
    @Test func answersOfAStaleStoreCarryWarningsValidly() async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        let seed = Self.seed
        let run = try await Self.check(count: 120, now: Self.stale, seed: seed)
        try Self.expectAllValid(run, count: 120, seed: seed)
        #expect(Self.warnings(run).contains("stale-store"), "\(Self.warnings(run))")
    }
}
