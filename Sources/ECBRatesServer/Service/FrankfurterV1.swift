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
    let api: NativeAPI

    /// Frankfurter's parameters, as the question fields they give.
    private static let names: [FrankfurterParameters.Name] = [
        .init("base", "from", field: .base),
        .init("symbols", "to", field: RateQuestion.field("currencies")),
        .init("amount", field: ConvertQuestion.field("amount")),
    ]

    func answer(_ path: String, _ request: HTTPRequest, now: Date) throws -> (EndpointAnswer, route: String) {
        if path == "/currencies" {
            _ = try FrankfurterParameters.input(request, [])
            let asked = try api.ask(CurrenciesQuestion(), now: now, fixedConversionRates: false)
            // As Frankfurter lists them: the currencies quoted in the 14 days up to the newest
            // publication (Frankfurter: up to today), and the euro.
            let since = asked.newest?.adding(days: -Self.currenciesWindow)
            let codes = asked.answered.answer.currencies.filter { currency in
                since.map { currency.lastDay >= $0 } ?? false
            }.map(\.code)
            let names = (codes + ["EUR"]).sorted().map { ($0, JSONText.string(CurrencyNames.name(of: $0) ?? $0)) }
            return (.json(.object(names), token: asked.token, freshness: .current), "v1/currencies")
        }
        var input = try FrankfurterParameters.input(request, Self.names)
        let base = input.currency("base") ?? "EUR"
        let symbols = input.currencies("currencies")
        let amount = input.amount("amount")?.value ?? 1
        if symbols == [base] {
            throw ServiceError(status: 422, "bad currency pair: symbols=\(base) is the base itself")
        }
        let name = String(path.dropFirst())
        if name == "latest" || name == "current" {
            return (try day(RateQuestion(input), amount: amount, now: now), "v1/latest")
        }
        if let range = name.range(of: "..") {
            let startText = String(name[..<range.lowerBound]), endText = String(name[range.upperBound...])
            // No first day: no route of Frankfurter's (`/{start}..{end}`, `/{start}..`) matches.
            if startText.isEmpty {
                throw ServiceError(status: 404, "not found: a range is /{start}..{end} or /{start}..")
            }
            guard let start = CalendarDay(startText) else { throw Self.notADate(startText) }
            input.set("from", .day(start))
            if !endText.isEmpty {
                guard let end = CalendarDay(endText) else { throw Self.notADate(endText) }
                input.set("to", .day(end))
            }
            input.set("partial", .flag(true))
            return (try self.range(SeriesQuestion(input), amount: amount, now: now), "v1/range")
        }
        guard name.count == 10, name.first?.isNumber == true else {
            throw ServiceError(status: 404, "not found")
        }
        guard let day = CalendarDay(name) else { throw Self.notADate(name) }
        input.set("date", .day(day))
        return (try self.day(RateQuestion(input), amount: amount, now: now), "v1/date")
    }

    /// The days before the newest publication whose currencies `/currencies` lists.
    static let currenciesWindow = 14

    private static func notADate(_ text: String) -> ServiceError {
        ServiceError(
            status: 422,
            "\(QuestionRefusal.shown(text)) is not a date (expected \(QuestionField.impossibleDay(text) ?? "YYYY-MM-DD"))"
        )
    }

    /// `/latest` or `/{date}`: the publication that answers for the question's day (the newest
    /// when it has none).
    private func day(_ question: RateQuestion, amount: Decimal, now: Date) throws -> EndpointAnswer {
        let asked = try api.ask(question, now: now, fixedConversionRates: false)
        let answers = asked.answered.answer.rates
        let base = question.base.text
        // The base's own answer (rate 1) is left out, and dated by the day asked, not by a publication.
        let others = answers.filter { $0.currency != base }
        let used = others.map(\.leadLeg.day).max() ?? question.date ?? asked.newest
        let rates = others.map { ($0.currency, Self.value($0, amount: amount)) }
        let body = JSONText.object([
            ("amount", .decimal(amount)), ("base", .string(base)), ("date", .string(used.map { "\($0)" } ?? "")),
            ("rates", .object(rates)),
        ])
        let isNewest = used.flatMap { used in asked.newest.map { used >= $0 } } ?? true
        let current = question.date == nil || isNewest || asked.isIncomplete
        var answer = EndpointAnswer.json(body, token: asked.token, freshness: current ? .current : .past)
        answer.warningCodes = asked.answered.warnings.map(\.code)
        return answer
    }

    /// `/{start}..{end}`: every publication from the first day through the last (the newest
    /// when open), of the currencies asked for or every one quoted in the range.
    private func range(_ question: SeriesQuestion, amount: Decimal, now: Date) throws -> EndpointAnswer {
        let (start, end) = (question.from!, question.to)
        let asked = try api.ask(question, now: now, fixedConversionRates: false) { question, queries in
            let (first, last) = try queries.bounds()
            let to = min(end ?? last, last)
            let from = max(start, first)
            guard from <= to else {
                throw ServiceError(status: 404, "no rates from \(start) to \(end.map { "\($0)" } ?? "now")")
            }
            // The currencies quoted somewhere in the range (or those asked for), the euro
            // among them against another base, as on a single day.
            if question.currencies.isEmpty {
                question.currencies =
                    (try queries.currencies().filter { $0.firstDay <= to && $0.lastDay >= from }.map {
                        CurrencyCode(stored: $0.code)
                    } + [.euro])
            }
            let base = question.base
            question.currencies.removeAll { $0 == base }
            try RangeLimit.check(from: from, to: to, currencies: question.currencies.count)
            (question.from, question.to) = (from, end == nil ? nil : to)
        }
        let table = asked.answered.answer
        var days: [(String, JSONText)] = []
        for row in table.rows {
            var rates: [(String, JSONText)] = []
            for (index, code) in table.currencies.enumerated() where code != question.base.text {
                guard let rate = row.rates[index] else { continue }
                rates.append((code, Self.value(rate, published: table.base == "EUR", amount: amount)))
            }
            if !rates.isEmpty { days.append(("\(row.day)", .object(rates))) }
        }
        guard let first = days.first?.0, let last = days.last?.0 else {
            throw ServiceError(status: 404, "no rates from \(start) to \(end.map { "\($0)" } ?? "now")")
        }
        let body = JSONText.object([
            ("amount", .decimal(amount)), ("base", .string(question.base.text)), ("start_date", .string(first)),
            ("end_date", .string(last)), ("rates", .object(days)),
        ])
        let reachesNewest = end.map { day in asked.newest.map { day >= $0 } ?? true } ?? true
        var answer = EndpointAnswer.json(
            body, token: asked.token, freshness: reachesNewest || asked.isIncomplete ? .current : .past)
        answer.warningCodes = asked.answered.warnings.map(\.code)
        return answer
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
