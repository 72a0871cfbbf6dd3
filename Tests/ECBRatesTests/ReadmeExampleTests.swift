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
        let converted = try await view.perform {
            try RateQueries(context: view).convert(100, from: "USD", to: "JPY", on: CalendarDay("2024-03-28"))
        }

        #expect(reports[0].inserted == 221_064)
        #expect("\(answer.rate) \(answer.day) \(answer.reason ?? "")" == "1.0811 2024-03-28 a Saturday")
        // The fixture's 2024-03-28: USD 1.0811, JPY 163.45; Python's decimal rounds the product.
        let oracle = try PythonTools.run(
            "import sys; from decimal import *; p=int(sys.stdin.read()); "
                + "print((Decimal(100)*Decimal('163.45')/Decimal('1.0811')).quantize(Decimal(1).scaleb(-p), ROUND_HALF_UP))",
            input: Data("\(converted.places)".utf8))
        #expect(
            "\(converted.result)"
                == String(decoding: oracle, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(
            converted.places == 0 && converted.rate.day == CalendarDay("2024-03-28"),
            "\(converted.places) \(converted.result)")
    }
}
