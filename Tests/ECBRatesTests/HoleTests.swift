import ECBRates
import Foundation
import TestSupport
import Testing

/// No holes passed off as days without rates: a store that lacks business days inside the days
/// it holds (the history to 2026-06-25, then the history from 2026-07-06: 26 June to 3 July are
/// missing) says so in `status`, fails `status --max-age-days`, and refuses to answer a rate
/// on, or falling back across, a missing day.
@Suite struct HoleTests {
    static let now = ["ECBRATES_NOW": "2026-10-01T12:00:00Z"]
    static let holes = ["2026-06-26", "2026-06-29", "2026-06-30", "2026-07-01", "2026-07-02", "2026-07-03"]

    func storeWithAHole(_ dir: TemporaryDirectory) async throws -> URL {
        let store = dir.file("rates.sqlite")
        let early = await ecbrates(["import", FixturePaths.history.path, "--to", "2026-06-25"], store: store)
        let late = await ecbrates(["import", FixturePaths.history.path, "--from", "2026-07-06"], store: store)
        try #require(early.status == 0 && late.status == 0, "\(early) \(late)")
        return store
    }

    @Test func statusListsTheHolesAndMaxAgeDaysFails() async throws {
        let dir = TemporaryDirectory()
        let store = try await storeWithAHole(dir)
        let text = await ecbrates(["status"], store: store, environment: Self.now)
        #expect(text.status == 0)
        #expect(
            text.out.contains(
                "\nholes:        6 business days without rates inside the stored days: \(Self.holes.joined(separator: ", ")); run 'ecbrates import hist' to fill them\n"
            ), "\(text.out)")
        let json = await ecbrates(["status", "--format", "json"], store: store, environment: Self.now)
        #expect(
            json.out.contains(#""upToDate":false"#)
                && json.out.contains(#""holes":["# + Self.holes.map { "\"\($0)\"" }.joined(separator: ",") + "]"),
            "\(json.out)")
        let monitored = await ecbrates(["status", "--max-age-days", "30"], store: store, environment: Self.now)
        #expect(monitored.status == 1)
        #expect(
            monitored.err
                == "the store has 6 holes (business days without rates, from 2026-06-26); run 'ecbrates import hist'\n")

        // Filled, the store is whole again.
        let filled = await ecbrates(["import", FixturePaths.history.path], store: store)
        #expect(filled.status == 0)
        let after = await ecbrates(
            ["status", "--max-age-days", "30", "--format", "json"], store: store, environment: Self.now)
        #expect(
            after.status == 0 && after.out.contains(#""upToDate":true"#) && after.out.contains(#""holes":[]"#),
            "\(after)")
    }

    @Test(arguments: [
        ("2026-07-01", "2026-07-01", ""), ("2026-06-26", "2026-06-26", ""),
        ("2026-07-04", "2026-07-03", " (needed to answer for 2026-07-04)"),
        ("2026-06-28", "2026-06-26", " (needed to answer for 2026-06-28)"),
    ])
    func aRateOnOrAcrossAHoleSaysTheStoreLacksTheDay(asked: String, missing: String, needed: String) async throws {
        let dir = TemporaryDirectory()
        let store = try await storeWithAHole(dir)
        let run = await ecbrates(["rate", "USD", "--date", asked], store: store, environment: Self.now)
        #expect(run.status == 65)
        #expect(
            run.err
                == "Error: the store lacks the rates of \(missing)\(needed), a TARGET business day inside the days it holds: an import left a hole there, the ECB did publish; fill it with 'ecbrates import hist' (the full history)\n",
            "\(run.err)")
    }

    @Test func daysBesideAHoleStillAnswer() async throws {
        let dir = TemporaryDirectory()
        let store = try await storeWithAHole(dir)
        let before = await ecbrates(["rate", "USD", "--date", "2026-06-25"], store: store, environment: Self.now)
        #expect(before.status == 0 && before.out.hasPrefix("USD "), "\(before)")
        let after = await ecbrates(["rate", "USD", "--date", "2026-07-05"], store: store, environment: Self.now)
        // Sunday 5 July falls back to Friday 3 July: a hole.
        #expect(after.status == 65)
        let monday = await ecbrates(["rate", "USD", "--date", "2026-07-06"], store: store, environment: Self.now)
        #expect(monday.status == 0 && monday.out.hasPrefix("USD "), "\(monday)")
    }
}
