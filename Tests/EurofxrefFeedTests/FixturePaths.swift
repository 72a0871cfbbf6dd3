import Foundation

/// Where the repository's fixtures are, found from this file's place in the tree.
enum FixturePaths {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Fixtures")
    static let history = fixtures.appendingPathComponent("eurofxref-hist.xml")
    static let ninetyDays = fixtures.appendingPathComponent("eurofxref-hist-90d.xml")
    static let daily = fixtures.appendingPathComponent("eurofxref-daily.xml")
    static let broken = fixtures.appendingPathComponent("broken")

    /// The names of the broken fixtures (without `.xml`).
    static var brokenCases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: broken.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") }.map { String($0.dropLast(4)) }.sorted()
    }
}
