import Foundation
import TestSupport
import Testing

/// The documentation's examples, run: `scripts/docs-check` runs every console, Python, Go and
/// SQL example of README.md and docs/*.md with the `ecbrates` this test run built, and compares
/// what each prints with what the page shows (the script says how). And README.md stays a
/// newcomer's page: short, with the rest in docs/, each guide linked from it.
@Suite struct DocsExampleTests {
    @Test func everyExampleInTheDocsPrintsWhatTheDocsShow() throws {
        let script = FixturePaths.root.appendingPathComponent("scripts/docs-check")
        let run = try SpawnedProcess.run(
            PythonTools.system, [script.path, "--binary", CommandRun.executable.path], timeout: 300)
        let ending = run.status.map { "exited \($0)" } ?? "was killed by signal \(run.signal ?? 0) (after 300 s?)"
        #expect(run.status == 0, "scripts/docs-check \(ending):\n\(run.out)\(run.err)")
    }

    @Test func theReadmeIsShortAndLinksToEveryGuide() throws {
        let readme = try String(
            contentsOf: FixturePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.count < 15_000, "README.md has \(readme.count) characters; move the details to docs/")
        let guides = try FileManager.default.contentsOfDirectory(
            atPath: FixturePaths.root.appendingPathComponent("docs").path
        ).filter { $0.hasSuffix(".md") }.sorted()
        for expected in ["user-guide.md", "operations.md", "library.md", "store.md", "ARCHITECTURE.md"] {
            #expect(guides.contains(expected), "docs/\(expected) is missing")
        }
        for guide in guides {
            #expect(readme.contains("](docs/\(guide))"), "README.md does not link to docs/\(guide)")
        }
    }
}
