import ECBRates
import EurofxrefFeed
import Foundation

/// Frankfurter's v1 API (lineofflight/frankfurter), on the ECB's rates: `/latest`, `/{date}`,
/// `/{start}..{end}`, `/{start}..` and `/currencies`, with `base` (alias `from`), `symbols`
/// (alias `to`) and `amount`; the same paths, JSON shapes and statuses, so that its clients
/// work by changing the base URL.
///
/// Where it differs on purpose: rates are the ECB's exact digits (cross rates and amounts to 20
/// significant digits, never rounded to Frankfurter's 5 decimals); a day with no publication
/// answers with the publication before it (as Frankfurter does) but never across a currency's
/// end; ranges are never thinned to weeks.
struct FrankfurterV1 {
    let store: RatesStore

    func answer(_ path: String, _ request: HTTPRequest, now: Date) throws -> (EndpointAnswer, route: String) {
        var parameters = RequestParameters(request)
        if path == "/currencies" {
            try parameters.checkAllRead()
            let (list, token) = try store.readSnapshot(now: now, fixedConversionRates: false) { queries in
                let newest = try queries.bounds().last
                return try queries.currencies().filter { $0.lastDay == newest }.map(\.code)
            }
            let names = (list + ["EUR"]).sorted().map { ($0, JSONText.string(CurrencyNames.name(of: $0) ?? $0)) }
            return (.json(.object(names), token: token, freshness: .current), "v1/currencies")
        }
        let base = try parameters.currency("base", "from") ?? "EUR"
        let symbols = try parameters.currencies("symbols", "to")
        let amount = try parameters.amount("amount") ?? 1
        try parameters.checkAllRead()
        if symbols == [base] {
            throw ServiceError(status: 422, "bad currency pair: symbols=\(base) is the base itself")
        }
        let name = String(path.dropFirst())
        if name == "latest" || name == "current" {
            return (try day(nil, base: base, symbols: symbols, amount: amount, now: now), "v1/latest")
        }
        if let range = name.range(of: "..") {
            let startText = String(name[..<range.lowerBound]), endText = String(name[range.upperBound...])
            guard let start = CalendarDay(startText) else { throw Self.notADate(startText) }
            var end: CalendarDay?
            if !endText.isEmpty {
                guard let day = CalendarDay(endText) else { throw Self.notADate(endText) }
                end = day
            }
            return (
                try self.range(start, end, base: base, symbols: symbols, amount: amount, now: now), "v1/range"
            )
        }
        guard name.count == 10, name.first?.isNumber == true else {
            throw ServiceError(status: 404, "not found")
        }
        guard let day = CalendarDay(name) else { throw Self.notADate(name) }
        return (try self.day(day, base: base, symbols: symbols, amount: amount, now: now), "v1/date")
    }

    private static func notADate(_ text: String) -> ServiceError {
        ServiceError(status: 422, "\(text) is not a date (expected YYYY-MM-DD)")
    }

    /// `/latest` or `/{date}`: the publication that answers for `day` (the newest for nil).
    private func day(
        _ day: CalendarDay?, base: String, symbols: [String]?, amount: Decimal, now: Date
    ) throws -> EndpointAnswer {
        let ((answers, used, newest), token) = try store.readSnapshot(now: now, fixedConversionRates: false) {
            queries in
            let answers = try queries.rates(symbols, on: day, base: base)
            let used = try answers.map(\.leadLeg.day).max() ?? day ?? queries.bounds().last
            return (answers, used, try queries.bounds().last)
        }
        let rates = answers.filter { $0.currency != base }.map { ($0.currency, Self.value($0, amount: amount)) }
        let body = JSONText.object([
            ("amount", .decimal(amount)), ("base", .string(base)), ("date", .string("\(used)")),
            ("rates", .object(rates)),
        ])
        return .json(body, token: token, freshness: day == nil || used >= newest ? .current : .past)
    }

    /// `/{start}..{end}`: every publication from `start` through `end` (the newest for nil).
    private func range(
        _ start: CalendarDay, _ end: CalendarDay?, base: String, symbols: [String]?, amount: Decimal, now: Date
    ) throws -> EndpointAnswer {
        if let end, end < start {
            throw ServiceError(status: 422, "the range \(start)..\(end) ends before it starts")
        }
        let ((table, newest), token) = try store.readSnapshot(now: now, fixedConversionRates: false) { queries in
            let (first, last) = try queries.bounds()
            let to = min(end ?? last, last)
            let from = max(start, first)
            guard from <= to else {
                throw ServiceError(status: 404, "no rates from \(start) to \(end.map { "\($0)" } ?? "now")")
            }
            // The currencies quoted somewhere in the range (or those asked for).
            // (The euro among them against another base, as on a single day.)
            let codes =
                try symbols
                ?? (queries.currencies().filter { $0.firstDay <= to && $0.lastDay >= from }.map(\.code) + ["EUR"])
                .filter { $0 != base }
            try RangeLimit.check(from: from, to: to, currencies: codes.count)
            let table = try queries.series(codes, from: from, to: to, base: base, partial: true)
            return (table, last)
        }
        var days: [(String, JSONText)] = []
        for row in table.rows {
            var rates: [(String, JSONText)] = []
            for (index, code) in table.currencies.enumerated() where code != base {
                guard let rate = row.rates[index] else { continue }
                rates.append((code, Self.value(rate, published: table.base == "EUR", amount: amount)))
            }
            if !rates.isEmpty { days.append(("\(row.day)", .object(rates))) }
        }
        guard let first = days.first?.0, let last = days.last?.0 else {
            throw ServiceError(status: 404, "no rates from \(start) to \(end.map { "\($0)" } ?? "now")")
        }
        let body = JSONText.object([
            ("amount", .decimal(amount)), ("base", .string(base)), ("start_date", .string(first)),
            ("end_date", .string(last)), ("rates", .object(days)),
        ])
        let reachesNewest = end.map { $0 >= newest } ?? true
        return .json(body, token: token, freshness: reachesNewest ? .current : .past)
    }

    /// A rate times `amount`: the ECB's digits exactly when it published the rate (times an
    /// exact amount: exact), else 20 significant digits.
    static func value(_ answer: RateAnswer, amount: Decimal) -> JSONText {
        value(answer.rate, published: NumberText.isPublished(answer), amount: amount)
    }

    static func value(_ rate: Decimal, published: Bool, amount: Decimal) -> JSONText {
        if published {
            var product = Decimal()
            var (left, right) = (rate, amount)
            if NSDecimalMultiply(&product, &left, &right, .plain) == .noError,
                DecimalMath.significantDigits(product) <= 38
            {
                return .decimal(product)
            }
        }
        return NumberText.machine(rate * amount)
    }
}
