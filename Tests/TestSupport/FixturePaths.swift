import Foundation

/// Where the repository's fixtures are, found from this file's place in the tree.
public enum FixturePaths {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let fixtures = root.appendingPathComponent("Fixtures")
    public static let history = fixtures.appendingPathComponent("eurofxref-hist.xml")
    public static let ninetyDays = fixtures.appendingPathComponent("eurofxref-hist-90d.xml")
    public static let daily = fixtures.appendingPathComponent("eurofxref-daily.xml")
    public static let broken = fixtures.appendingPathComponent("broken")

    /// The names of the broken fixtures (without `.xml`).
    public static var brokenCases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: broken.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") }.map { String($0.dropLast(4)) }.sorted()
    }
}
