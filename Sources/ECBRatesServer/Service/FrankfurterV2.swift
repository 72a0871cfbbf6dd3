import ECBRates
import EurofxrefFeed
import Foundation

/// Frankfurter's v2 API (lineofflight/frankfurter's `/v2/openapi.json`), its ECB subset:
/// `/v2/rates` (`date`, `from`, `to`, `base`, `quotes`, `group=week|month`, `providers=ECB`),
/// `/v2/rate/{base}/{quote}`, `/v2/currencies` (`scope=all`), `/v2/currency/{code}` and
/// `/v2/providers`. Rates are records `{"date","base","quote","rate"}`, as a JSON array, as
/// NDJSON when `Accept` asks for `application/x-ndjson`, or as CSV at `/v2/rates.csv`.
///
/// Where it differs on purpose: the ECB is the only provider (no blend); rates are the ECB's
/// exact digits (cross rates and means to 20 significant digits); each record's `date` is the
/// publication that answers (a weekend answers with the Friday before); a range that reaches
/// a day the store lacks is refused, naming the day, rather than answered with a gap; weeks
/// run Monday to Sunday and are dated by their Monday, months by their first day.
struct FrankfurterV2 {
    let api: NativeAPI

    /// `/v2/rates`' parameters, as the question fields they give (`partial` is ours, beside
    /// Frankfurter's: a range the store lacks published days of is answered from what it holds).
    private static let rateNames: [FrankfurterParameters.Name] = [
        .init("date", field: .date), .init("from", field: SeriesQuestion.field("from")), .init("to", field: .to),
        .init("base", field: .base), .init("quotes", field: RateQuestion.field("currencies")),
        .init("group", field: SeriesQuestion.field("group")), .init("partial", field: .partial),
    ]
    /// `/v2/currencies`' `scope`.
    private static let scope = QuestionField(name: "scope", kind: .choice(["all"]), help: "Every currency ever quoted.")

    /// The answer to `request` at `path` (after `/v2`).
    func answer(_ path: String, _ request: HTTPRequest, now: Date) throws -> (EndpointAnswer, route: String) {
        let ndjson = request.header("accept")?.contains("application/x-ndjson") == true
        if path == "/rates" || path == "/rates.csv" {
            let format: RecordFormat = path.hasSuffix(".csv") ? .csv : ndjson ? .ndjson : .json
            return (try rates(request, format: format, now: now), "v2/rates")
        }
        if path.hasSuffix(".csv") {
            throw ServiceError(status: 406, "CSV is served for /v2/rates.csv only", code: "not-acceptable")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch parts.first {
        case "rate" where parts.count == 3:
            let base = try Self.code(parts[1]), quote = try Self.code(parts[2])
            try Self.checkProviders(request)
            var input = try FrankfurterParameters.input(request, [.init("date", field: .date)], handled: ["providers"])
            input.set("base", .currency(base))
            let (records, asked) = try self.records(input, [quote], now: now)
            guard let record = records.first else { throw ServiceError(status: 404, "not found") }
            let current = input.day("date") == nil || asked.newest.map { record.day >= $0 } ?? true
            var answer = EndpointAnswer.json(record.json, token: asked.token, freshness: current ? .current : .past)
            answer.warningCodes = asked.answered.warnings.map(\.code)
            return (answer, "v2/rate")
        case "currencies" where parts.count == 1:
            try Self.checkProviders(request)
            let all = try FrankfurterParameters.input(
                request, [.init("scope", field: Self.scope)], handled: ["providers"]
            )
            .has("scope")
            let asked = try api.ask(CurrenciesQuestion(), now: now, fixedConversionRates: false)
            let list = asked.answered.answer.currencies.filter { all || $0.lastDay == asked.newest }
            // The euro: quoted against on every day the store holds.
            var spans = list.map { ($0.code, $0.firstDay, $0.lastDay) }
            if let first = list.map(\.firstDay).min(), let last = list.map(\.lastDay).max() {
                spans.append(("EUR", first, last))
            }
            let entries = spans.sorted { $0.0 < $1.0 }.map { code, first, last in
                JSONText.object(
                    Self.identity(code) + [("start_date", .string("\(first)")), ("end_date", .string("\(last)"))])
            }
            return (.json(.array(entries), token: asked.token, freshness: .current), "v2/currencies")
        case "currency" where parts.count == 2:
            let code = try Self.code(parts[1]).text
            _ = try FrankfurterParameters.input(request, [])
            let asked = try api.ask(CurrenciesQuestion(), now: now, fixedConversionRates: false)
            let summary = asked.answered.answer.currencies.first { $0.code == code }
            guard CurrencyNames.name(of: code) != nil, summary != nil || code == "EUR" else {
                throw ServiceError(status: 404, "not found: the ECB has never quoted \(code)")
            }
            var fields = Self.identity(code) + [("providers", JSONText.array([.string("ECB")]))]
            if let summary {
                fields += [("start_date", .string("\(summary.firstDay)")), ("end_date", .string("\(summary.lastDay)"))]
            }
            return (.json(.object(fields), token: asked.token, freshness: .current), "v2/currency")
        case "providers" where parts.count == 1:
            _ = try FrankfurterParameters.input(request, [])
            return (try providers(now: now), "v2/providers")
        default:
            throw ServiceError(status: 404, "not found")
        }
    }

    /// `/v2/providers`: the ECB, from the store's status and its currencies.
    private func providers(now: Date) throws -> EndpointAnswer {
        let status = try api.ask(StatusQuestion(), now: now, fixedConversionRates: false).answered.answer
        let asked = try api.ask(CurrenciesQuestion(), now: now, fixedConversionRates: false)
        let codes = asked.answered.answer.currencies.filter { $0.lastDay == status.lastDay }.map(\.code)
        let provider = JSONText.object([
            ("key", .string("ECB")), ("name", .string("European Central Bank")), ("country_code", .string("EU")),
            ("rate_type", .string("reference")), ("pivot_currency", .string("EUR")),
            (
                "data_url",
                .string(
                    "https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html"
                )
            ),
            ("terms_url", .string("https://www.ecb.europa.eu/services/using-our-site/disclaimer/html/index.en.html")),
            ("start_date", status.firstDay.map { .string("\($0)") } ?? .null),
            ("end_date", status.lastDay.map { .string("\($0)") } ?? .null),
            ("publish_cadence", .string("daily")),
            ("publishes_missed", .number(Double(status.missingBusinessDays.count))),
            ("currencies", .array(codes.sorted().map { .string($0) })),
        ])
        // Two reads: kept by a cache only when no import came between them.
        let token = status.lastDay == asked.newest ? asked.token : nil
        return .json(.array([provider]), token: token, freshness: .current)
    }

    // MARK: Rates

    /// How `/v2/rates` writes its records.
    enum RecordFormat { case json, ndjson, csv }

    /// `/v2/rates`: the newest publication, one day's, or every publication of a range (or its
    /// weekly or monthly means).
    private func rates(_ request: HTTPRequest, format: RecordFormat, now: Date) throws -> EndpointAnswer {
        try Self.checkProviders(request)
        if let expand = request.parameter("expand") {
            throw ServiceError(status: 422, "invalid expand: \(expand) (one provider, the ECB: nothing to expand)")
        }
        var input = try FrankfurterParameters.input(request, Self.rateNames, handled: ["providers", "expand"])
        let (day, from, to) = (input.day("date"), input.day("from"), input.day("to"))
        if day != nil && (from != nil || to != nil) {
            throw ServiceError(status: 422, "conflicting params: date with from/to")
        }
        if to != nil && from == nil { throw ServiceError(status: 422, "parameter to needs from") }
        if input.has("group") && from == nil {
            throw ServiceError(status: 422, "parameter group applies to ranges (from, to) only")
        }
        let quotes = input.currencies("currencies")
        let (records, asked): ([RateRecord], (newest: CalendarDay?, token: HistoryToken?, warnings: [AnswerWarning]))
        let current: Bool
        if from != nil {
            // An asked end is kept (up to today), so that days the store lacks are refused by
            // name, not cut off; an open range ends at the newest stored day.
            if let to { input.set("to", .day(min(to, TargetCalendar.today(at: now)))) }
            (records, asked) = try rangeRecords(try SeriesQuestion(input), quotes, now: now)
            current = to.map { to in asked.newest.map { to >= $0 } ?? true } ?? true
        } else {
            let answered = try self.records(input, quotes, now: now)
            records = answered.records
            asked = (answered.asked.newest, answered.asked.token, answered.asked.answered.warnings)
            current =
                day == nil || (records.map(\.day).max()).flatMap { used in asked.newest.map { used >= $0 } } ?? true
        }
        let incomplete = asked.warnings.contains { $0.code == "incomplete-answer" || $0.code == "stale-store" }
        let freshness: EndpointAnswer.Freshness = current || incomplete ? .current : .past
        var answer: EndpointAnswer
        switch format {
        case .json: answer = .json(.array(records.map(\.json)), token: asked.token, freshness: freshness)
        case .ndjson:
            var body = ""
            for record in records {
                record.json.write(to: &body)
                body += "\n"
            }
            answer = EndpointAnswer(
                body: body, contentType: "application/x-ndjson", token: asked.token, freshness: freshness)
        case .csv:
            var body = records.isEmpty ? "" : CSVText.line(["date", "base", "quote", "rate"])
            for record in records {
                body += CSVText.line(["\(record.day)", record.base, record.quote, record.rate.text])
            }
            answer = EndpointAnswer(
                body: body, contentType: "text/csv; charset=utf-8", token: asked.token, freshness: freshness)
        }
        answer.warningCodes = asked.warnings.map(\.code)
        return answer
    }

    /// One day's records (the newest when `input` names none), each dated by the publication
    /// that answers it; the base's own record (rate 1) among them when `quotes` allows it: the
    /// rate question of the currencies other than the base.
    private func records(
        _ input: QuestionInput, _ quotes: [CurrencyCode]?, now: Date
    ) throws -> (records: [RateRecord], asked: NativeAPI.Asked<RateQuestion>) {
        var input = input
        let baseCode = input.currency("base") ?? .euro, base = baseCode.text
        let others = quotes?.filter { $0 != baseCode }
        // Only the base's own record asked for: the day comes from the publication of all.
        if let others, !others.isEmpty {
            input.set("currencies", .currencies(others))
        } else {
            input.remove("currencies")
        }
        let asked = try api.ask(RateQuestion(input), now: now, fixedConversionRates: false)
        var answers = asked.answered.answer.rates
        // The base's own answer is dated by the day asked, not by a publication.
        answers.removeAll { $0.currency == base }
        var records: [RateRecord] = []
        if others?.isEmpty != true {
            records = answers.map {
                RateRecord(
                    day: $0.leadLeg.day, base: base, quote: $0.currency, rate: FrankfurterV1.value($0, amount: 1))
            }
        }
        if quotes == nil || quotes!.contains(baseCode) {
            // The base's own record is dated as the others are: by the publication that answers.
            guard let used = answers.map(\.leadLeg.day).max() else { throw ServiceError(status: 404, "not found") }
            records.append(RateRecord(day: used, base: base, quote: base, rate: .decimal(1)))
        }
        return (records.sorted { ($0.day, $0.quote) < ($1.day, $1.quote) }, asked)
    }

    /// Every publication of the series question's range, or one record per week or month (the
    /// mean), of `quotes` (every currency quoted in the range when nil).
    private func rangeRecords(
        _ question: SeriesQuestion, _ quotes: [CurrencyCode]?, now: Date
    ) throws -> ([RateRecord], (newest: CalendarDay?, token: HistoryToken?, warnings: [AnswerWarning])) {
        let baseCode = question.base, base = baseCode.text
        let others = quotes?.filter { $0 != baseCode }
        let identityOnly = others?.isEmpty == true
        let asked = try api.ask(question, now: now, fixedConversionRates: false) { question, queries in
            let first = try queries.bounds().first
            let (from, to) = (max(question.from!, first), try question.range(queries).last)
            guard from <= to else { throw ServiceError(status: 404, "no rates from \(question.from!) to \(to)") }
            question.from = from
            var codes =
                try others
                ?? queries.currencies().filter { $0.firstDay <= to && $0.lastDay >= from && $0.code != base }.map {
                    CurrencyCode(stored: $0.code)
                }
            try RangeLimit.check(from: from, to: to, currencies: codes.count + 1)
            // Only the base's own records asked for: the days come from a column not written (the
            // base's own, or any currency of the range for the euro).
            if codes.isEmpty {
                let any = try queries.currencies().first { $0.firstDay <= to && $0.lastDay >= from }?.code
                guard let column = base == "EUR" ? any : base else {
                    throw ServiceError(status: 404, "no rates from \(from) to \(to)")
                }
                codes = [CurrencyCode(stored: column)]
            }
            question.currencies = codes
        }
        let table = asked.answered.answer
        let withIdentity = quotes == nil || quotes!.contains(baseCode)
        let published = question.grouping == nil && table.base == "EUR"
        var records: [RateRecord] = []
        for row in table.rows {
            var day: [RateRecord] = []
            guard row.rates.contains(where: { $0 != nil }) else { continue }
            for (index, code) in table.currencies.enumerated() where !identityOnly && code != base {
                guard let rate = row.rates[index] else { continue }
                day.append(
                    RateRecord(
                        day: row.day, base: base, quote: code,
                        rate: FrankfurterV1.value(rate, published: published, amount: 1)))
            }
            if withIdentity { day.append(RateRecord(day: row.day, base: base, quote: base, rate: .decimal(1))) }
            records += day.sorted { $0.quote < $1.quote }
        }
        return (records, (asked.newest, asked.token, asked.answered.warnings))
    }

    // MARK: Helpers

    /// A currency code in a path (in either case).
    private static func code(_ text: String) throws -> CurrencyCode {
        guard let code = CurrencyCode(text) else {
            throw ServiceError(status: 422, "invalid currency: \(text)", code: "bad-parameter")
        }
        return code
    }

    /// `providers`: the ECB is the only one.
    private static func checkProviders(_ request: HTTPRequest) throws {
        guard let value = request.parameter("providers") else { return }
        let keys = value.split(separator: ",").map { $0.uppercased() }
        if keys.isEmpty || keys.contains(where: { $0 != "ECB" }) {
            throw ServiceError(status: 422, "invalid providers: \(value) (this server has one provider, ECB)")
        }
    }

    /// A currency's `iso_code`, `iso_numeric`, `name` and `symbol`.
    private static func identity(_ code: String) -> [(String, JSONText)] {
        [
            ("iso_code", .string(code)),
            ("iso_numeric", CurrencyNames.numericCode(of: code).map { .string($0) } ?? .null),
            ("name", .string(CurrencyNames.name(of: code) ?? code)),
            ("symbol", CurrencyNames.symbol(of: code).map { .string($0) } ?? .null),
        ]
    }
}

/// One record of `/v2/rates`.
private struct RateRecord {
    let day: CalendarDay
    let base: String
    let quote: String
    let rate: JSONText

    var json: JSONText {
        .object([("date", .string("\(day)")), ("base", .string(base)), ("quote", .string(quote)), ("rate", rate)])
    }
}
