import Foundation
import TestSupport
import Testing

/// The page at `serve`'s root in a real browser: Debian's headless Chromium driven by Selenium
/// (`page_check.py`): no console error, no request leaving the server, the converter's answers
/// exactly `ecbrates convert`'s for seeded conversions, the chart's table and points the
/// series' numbers, hostile values shown as text, the keyboard alone, and screenshots at 390 and
/// 1440 px kept in `.build/test-output/page/`.
@Suite(.serialized) struct PageBrowserTests {
    static var seed: Int {
        ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(Int.init) ?? Int.random(in: 1...999_999)
    }

    /// Where the screenshots are kept after the run.
    static let shots = FixturePaths.root.appendingPathComponent(".build/test-output/page")

    @Test func aBrowserGetsExactAnswersFromThePageAlone() async throws {
        try #require(PythonTools.missingPackages == nil, "\(PythonTools.missingPackages ?? "")")
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"),
            "chromium-driver is missing: run scripts/prerequisites")
        let served = try await ServedStore()
        let seed = Self.seed
        let cases = ProcessInfo.processInfo.environment["ECBRATES_PAGE_CASES"] ?? "40"
        let run = try SpawnedProcess.run(
            PythonTools.withPackages,
            [
                PythonTools.serverScript("page_check.py"), served.baseURL, CommandRun.executable.path,
                served.store.path, "\(seed)", cases, Self.shots.path,
            ], timeout: 600)
        #expect(
            run.status == 0, "rebuild with ECBRATES_SEED=\(seed): \(run.out.suffix(3_000)) \(run.err.suffix(2_000))")
        let last = run.out.split(separator: "\n").last ?? ""
        #expect(last.hasPrefix("ok "), "\(run.out.suffix(800))")
        print("page_check seed \(seed): \(last)")
        for name in ["page-1440.png", "page-390.png", "page-390-dark.png"] {
            let size =
                (try? FileManager.default.attributesOfItem(atPath: Self.shots.appendingPathComponent(name).path))?[
                    .size] as? Int
            #expect((size ?? 0) > 10_000, "the screenshot \(name) was not kept")
        }
    }
}
