import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// Every broken fixture fails with exactly the error written beside it.
@Suite struct BrokenFixtureTests {
    @Test(arguments: FixturePaths.brokenCases)
    func eachBrokenFileGivesItsExactError(name: String) throws {
        let file = FixturePaths.broken.appendingPathComponent(name + ".xml")
        let expected = try String(
            contentsOf: FixturePaths.broken.appendingPathComponent(name + ".expected"), encoding: .utf8
        )
        .trimmingCharacters(in: .newlines)
        let stream = try #require(InputStream(url: file))
        #expect {
            _ = try EurofxrefReader(source: name + ".xml").validate(stream)
        } throws: { error in
            "\(error)" == expected
        }
    }

    @Test func thereIsABrokenFixtureForEveryKindOfError() {
        #expect(FixturePaths.brokenCases.count >= 26)
    }

    @Test func anExternalEntityIsNeverRead() throws {
        let data = try Data(contentsOf: FixturePaths.broken.appendingPathComponent("external-entity.xml"))
        var seen: [RateRecord] = []
        do {
            _ = try EurofxrefReader(source: "x").read(data) { seen += $0.records }
            Issue.record("the read should have failed")
        } catch let error as FeedError {
            #expect(error.kind == .notRatesDocument)
            #expect(!"\(error)".contains("root:"))
        }
        #expect(seen.isEmpty)
    }
}
