import EurofxrefFeed

/// The most rates one answer of a range holds: enough for the whole history of every currency
/// the ECB has quoted (about 10,100 days × 42 currencies), so that one request cannot make the
/// server build an answer without bound. Beyond it: a 422 that says how to narrow the request.
enum RangeLimit {
    /// Calendar days × currencies, at most.
    static let maxValues = 500_000

    /// Refuses a range from `from` through `to` of `currencies` columns that could exceed the limit.
    static func check(from: CalendarDay, to: CalendarDay, currencies: Int) throws {
        let values = (to.days(since: from) + 1) * max(1, currencies)
        guard values <= maxValues else {
            throw ServiceError(
                status: 422,
                "the range \(from)..\(to) asks for up to \(values) rates (days × currencies), more than the "
                    + "\(maxValues) one answer holds; name fewer currencies, group by week or month, or split the range",
                code: "range-too-long")
        }
    }
}
