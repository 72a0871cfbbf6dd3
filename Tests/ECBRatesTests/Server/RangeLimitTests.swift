import EurofxrefFeed
import Testing

@testable import ECBRatesServer

/// The range limit: the whole history of every currency the ECB has quoted fits in one answer
/// (so no real request reaches it today); a range past it is a 422 that says how to narrow it.
struct RangeLimitTests {
    @Test func theWholeHistoryOfEveryCurrencyFitsAndOneRateMoreDoesNot() throws {
        let first = try #require(CalendarDay("1999-01-04")), last = try #require(CalendarDay("2026-09-30"))
        try RangeLimit.check(from: first, to: last, currencies: 42)
        let days = RangeLimit.maxValues / 50
        try RangeLimit.check(from: first, to: first.adding(days: days - 1), currencies: 50)
        let error = #expect(throws: ServiceError.self) {
            try RangeLimit.check(from: first, to: first.adding(days: days), currencies: 50)
        }
        #expect(error?.status == 422 && error?.code == "range-too-long")
        #expect(error?.message.contains("name fewer currencies, group by week or month, or split the range") == true)
    }
}
