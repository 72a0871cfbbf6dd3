import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// The library example in docs/library.md (once in README.md), as written there (with a store of
/// the test's own).
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleImportsAndAnswers() async throws {
        let dir = TemporaryDirectory()
        let history = FixturePaths.history.path

        // From docs/library.md:
        let store = try RatesStore(url: dir.file("rates.sqlite"))
        let reports = try await ImportJob(store: store, sources: [.file(history)]).run()
        let view = store.viewContext
        let answer = try await view.perform {
            try RateQueries(context: view).rate("USD", on: CalendarDay("2024-03-30"))
        }

        #expect(reports[0].inserted == 221_064)
        #expect("\(answer.rate) \(answer.day) \(answer.reason ?? "")" == "1.0811 2024-03-28 a Saturday")
    }
}
