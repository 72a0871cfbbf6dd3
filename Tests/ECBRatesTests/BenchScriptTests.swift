import Foundation
import TestSupport
import Testing

/// `scripts/bench --quick` on the small fixtures, with the binaries this test run built, so that
/// the script cannot rot: every benchmark runs once and reports a figure. (No figure is checked
/// against its bar here: the machines CI runs on are shared and noisy.)
@Suite struct BenchScriptTests {
    @Test func theQuickBenchRunsEveryBenchmarkAndLeavesBenchmarksMarkdownAlone() throws {
        let binaries = CommandRun.executable.deletingLastPathComponent()
        try #require(
            FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent("ecbrates-bench").path),
            "ecbrates-bench is built beside the tests (scripts/test builds it)")
        let dir = TemporaryDirectory()
        let json = dir.file("bench.json")
        let markdown = FixturePaths.root.appendingPathComponent("BENCHMARKS.md")
        let before = try? Data(contentsOf: markdown)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "scripts/bench", "--quick", "--bin-path", binaries.path, "--json", json.path]
        process.currentDirectoryURL = FixturePaths.root
        let out = Pipe()
        let log = dir.file("bench.log")
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let table = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0, "\(table)\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        struct Report: Decodable {
            struct Figure: Decodable {
                let name: String
                let value: Double
                let baseline: String?
                let baseline_value: Double?
                let verdict: String
            }
            let quick: Bool
            let figures: [Figure]
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: json))
        #expect(report.quick)
        let expected = [
            "ManagedStore insert", "Import eurofxref-hist-90d.xml, fresh store: wall", "Re-import", "Nightly",
            "Stack (1)", "Stack (2)", "Stack (3)", "Import with the defaults", "Query: `ecbrates rate USD",
            "Query: a rate lookup in process", "Query: full USD series as JSON", "Import peak RSS", "Reader: parse",
            "Import eurofxref-hist-90d.xml in process, history recorded",
            "Import eurofxref-hist-90d.xml, fresh store, --method object (default)",
            "Remote change", "`watch` idle CPU",
        ]
        for prefix in expected {
            #expect(report.figures.contains { $0.name.hasPrefix(prefix) }, "no figure named \(prefix)…")
        }
        #expect(
            report.figures.contains {
                ($0.baseline ?? "").hasPrefix("today's binary in place of")
                    || ($0.baseline ?? "").hasPrefix("previous release")
            },
            "the import against the previous release")
        for figure in report.figures {
            // An idle watch may use no CPU tick in the quick run's 2 s, and a new day may be on
            // watch's output before the importing process has exited (0 ms): those may be 0.
            let mayBeZero = figure.name.hasPrefix("`watch` idle CPU") || figure.name.hasPrefix("Remote change")
            #expect(mayBeZero ? figure.value >= 0 : figure.value > 0, "\(figure.name)")
            if figure.baseline != nil { #expect((figure.baseline_value ?? 0) > 0, "\(figure.name)") }
        }
        #expect(
            table.contains(
                "| figure | ecbrates | baseline | baseline value | ratio (median of paired runs) | spread (min–max) | bar |"
            ))
        #expect(table.contains("## The stack shootout"))
        #expect(table.contains("## Workers and chunks"))
        #expect((try? Data(contentsOf: markdown)) == before, "--quick leaves BENCHMARKS.md as it was")
    }
}
