import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// A Swift program is a door of its own: a ``QueryError`` it catches advises ``RateQueries``'
/// parameters (`fallback: .previous`), not the command line's options, while the command line
/// still says `--fallback previous` for the same question.
@Suite struct SwiftDoorTests {
    @Test func aLibraryCallersErrorNamesTheParametersItCalledWith() async throws {
        let dir = TemporaryDirectory()
        let url = try await PreparedStore.copy(into: dir)
        let store = try RatesStore(url: url)
        let view = store.viewContext
        let said = await view.perform { () -> String in
            do {
                _ = try RateQueries(context: view).rate("USD", on: CalendarDay("2024-03-30"), fallback: .none)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            said
                == "no USD rate on 2024-03-30 (a Saturday); fallback: .previous, .next, .nearest or .interpolate gives one from a day near it"
        )
        let run = await ecbrates(
            ["rate", "USD", "--date", "2024-03-30", "--fallback", "none"], store: url, environment: QueryTests.now)
        #expect(
            run.err.contains("--fallback previous, next, nearest or interpolate gives one from a day near it"), "\(run)"
        )
    }

    @Test func everyFieldHasASwiftLabel() {
        #expect(QuestionField.asOf.swiftName == "asOf")
        #expect(Door.swift.spell(.partial) == "partial: true")
        #expect(Door.swift.spell(.asOf, "2026-10-01") == "asOf: 2026-10-01")
    }
}
