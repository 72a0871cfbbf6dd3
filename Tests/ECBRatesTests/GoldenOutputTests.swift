import Foundation
import TestSupport
import Testing

/// Every command's text, JSON, CSV (and NDJSON, SVG) output, help page and error, byte for byte,
/// as `Fixtures/golden/cases.txt` lists them: recorded from the binary before the answers moved
/// into ECBRates and the inputs into declarations, so that the move is proved to change nothing.
///
/// Record again (after a deliberate change of output, named in the commit) with
/// `ECBRATES_GOLDEN_RECORD=1 scripts/test --filter GoldenOutputTests`.
@Suite struct GoldenOutputTests {
    static let folder = FixturePaths.fixtures.appendingPathComponent("golden")

    /// One line of `cases.txt`: a name, and the arguments with their placeholders.
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let arguments: String
        var description: String { name }
    }

    /// `Fixtures/golden/cases.txt`: a case a line, its name and its arguments (a tab between);
    /// `#` starts a comment.
    static let casesFile = folder.appendingPathComponent("cases.txt")

    /// The cases `cases.txt` lists, or why it could not be read: then there are none, and
    /// ``casesAreListed()`` fails naming the file (`outputIsUnchanged` alone, with no arguments,
    /// would pass without a word).
    static let listing: (cases: [Case], error: String?) = {
        let text: String
        do {
            text = try String(contentsOf: casesFile, encoding: .utf8)
        } catch {
            return ([], "cannot read \(casesFile.path): \(error)")
        }
        let cases = text.split(separator: "\n").compactMap { line -> Case? in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return Case(name: String(parts[0]), arguments: String(parts[1]))
        }
        return (cases, nil)
    }()

    static var cases: [Case] { listing.cases }

    /// What varies from run to run, replaced by a placeholder: the store's path, import times
    /// and durations.
    static func normalized(_ text: String, store: String, directory: String) -> String {
        var text = text.replacingOccurrences(of: store, with: "{store}").replacingOccurrences(
            of: directory, with: "{dir}")
        text = text.replacingOccurrences(of: FixturePaths.fixtures.path, with: "{fixtures}")
        let patterns = [
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, "{time}"),
            (#"in \d+\.\d+ s"#, "in {s} s"),
            (#"took \d+\.\d+ s"#, "took {s} s"),
            (#""seconds":\d+(\.\d+)?"#, #""seconds":{s}"#),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    @Test func casesAreListed() {
        #expect(Self.listing.error == nil, "\(Self.listing.error ?? "")")
        #expect(Self.cases.count >= 140, "\(Self.casesFile.path) lists \(Self.cases.count) cases")
        #expect(Set(Self.cases.map(\.name)).count == Self.cases.count, "a name is listed twice")
    }

    @Test(arguments: cases)
    func outputIsUnchanged(_ golden: Case) async throws {
        let directory = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: directory)
        let fresh = directory.file("fresh.sqlite").path
        let arguments = golden.arguments.split(separator: " ").map {
            String($0).replacingOccurrences(of: "{store}", with: store.path).replacingOccurrences(
                of: "{fresh}", with: fresh
            )
            .replacingOccurrences(of: "{fixtures}", with: FixturePaths.fixtures.path)
        }
        let run = try CommandRun.process(
            arguments, environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z", "NO_COLOR": "1"])
        let actual = Self.normalized(
            "exit \(run.status)\n--- stdout\n\(run.out)--- stderr\n\(run.err)",
            store: store.path, directory: directory.url.path)
        let file = Self.folder.appendingPathComponent(golden.name)
        if ProcessInfo.processInfo.environment["ECBRATES_GOLDEN_RECORD"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "ecbrates \(golden.arguments)")
    }
}
