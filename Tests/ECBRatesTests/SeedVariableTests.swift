import Foundation
import TestSupport
import Testing

/// Issue 43: one seed variable, `ECBRATES_SEED`, rebuilds any seeded test's cases (19 names were
/// read before). Every environment variable a test reads whose name speaks of a seed is it.
struct SeedVariableTests {
    @Test func everySeededTestReadsECBRATES_SEED() throws {
        let tests = FixturePaths.root.appendingPathComponent("Tests")
        var others: [String] = []
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") || file.hasSuffix(".py") || file.hasSuffix(".sh") {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /\b([A-Z][A-Z0-9_]*SEED[A-Z0-9_]*)\b/) where match.1 != "ECBRATES_SEED" {
                others.append("\(file): \(match.1)")
            }
        }
        #expect(others.isEmpty, "seed variables other than ECBRATES_SEED: \(others)")
        #expect(files.count > 50, "read \(files.count) files under \(tests.path)")
    }
}
