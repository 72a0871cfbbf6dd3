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
    let store: RatesStore

    /// The answer to `request` at `path` (after `/v2`).
    func answer(_ path: String, _ request: HTTPRequest, now: Date) throws -> (EndpointAnswer, route: String) {
        var parameters = RequestParameters(request)
        let ndjson = request.header("accept")?.contains("application/x-ndjson") == true
        if path == "/rates" || path == "/rates.csv" {
            let format: RecordFormat = path.hasSuffix(".csv") ? .csv : ndjson ? .ndjson : .json
            return (try rates(&parameters, format: format, now: now), "v2/rates")
        }
        if path.hasSuffix(".csv") {
            throw ServiceError(status: 406, "CSV is served for /v2/rates.csv only", code: "not-acceptable")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch parts.first {
        case "rate" where parts.count == 3:
            let base = try Self.code(parts[1]), quote = try Self.code(parts[2])
            let day = try parameters.day("date")
            try Self.checkProviders(&parameters)
            try parameters.checkAllRead()
            let (answer, token) = try store.readSnapshot(now: now, fixedConversionRates: false) {
                queries -> (RateRecord?, CalendarDay) in
                let found = try self.records(queries, [quote], base: base, day: day).first
                return (found, try queries.bounds().last)
            }
            guard let record = answer.0 else { throw ServiceError(status: 404, "not found") }
            let freshness: EndpointAnswer.Freshness = day == nil || record.day >= answer.1 ? .current : .past
            return (.json(record.json, token: token, freshness: freshness), "v2/rate")
        case "currencies" where parts.count == 1:
            let all = try parameters.choice("scope", Scope.self) == .all
            try Self.checkProviders(&parameters)
            try parameters.checkAllRead()
            let (list, token) = try store.readSnapshot(now: now, fixedConversionRates: false) { queries in
                let newest = try queries.bounds().last
                return try queries.currencies().filter { all || $0.lastDay == newest }
            }
            // The euro: quoted against on every day the store holds.
            var spans = list.map { ($0.code, $0.firstDay, $0.lastDay) }
            if let first = list.map(\.firstDay).min(), let last = list.map(\.lastDay).max() {
                spans.append(("EUR", first, last))
            }
            let entries = spans.sorted { $0.0 < $1.0 }.map { code, first, last in
                JSONText.object(
                    Self.identity(code) + [("start_date", .string("\(first)")), ("end_date", .string("\(last)"))])
            }
            return (.json(.array(entries), token: token, freshness: .current), "v2/currencies")
        case "currency" where parts.count == 2:
            let code = try Self.code(parts[1])
            try parameters.checkAllRead()
            let (summary, token) = try store.readSnapshot(now: now, fixedConversionRates: false) { queries in
                try queries.currencies().first { $0.code == code }
            }
            guard CurrencyNames.name(of: code) != nil, summary != nil || code == "EUR" else {
                throw ServiceError(status: 404, "not found: the ECB has never quoted \(code)")
            }
            var fields = Self.identity(code) + [("providers", JSONText.array([.string("ECB")]))]
            if let summary {
                fields += [("start_date", .string("\(summary.firstDay)")), ("end_date", .string("\(summary.lastDay)"))]
            }
            return (.json(.object(fields), token: token, freshness: .current), "v2/currency")
        case "providers" where parts.count == 1:
            try parameters.checkAllRead()
            let ((status, codes), token) = try store.readSnapshot(now: now, fixedConversionRates: false) { queries in
                let status = try queries.status()
                let newest = status.lastDay
                return (status, try queries.currencies().filter { $0.lastDay == newest }.map(\.code))
            }
            let provider = JSONText.object([
                ("key", .string("ECB")), ("name", .string("European Central Bank")), ("country_code", .string("EU")),
                ("rate_type", .string("reference")), ("pivot_currency", .string("EUR")),
                (
                    "data_url",
                    .string(
                        "https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html"
                    )
                ),
                (
                    "terms_url",
                    .string("https://www.ecb.europa.eu/services/using-our-site/disclaimer/html/index.en.html")
                ),
                ("start_date", status.firstDay.map { .string("\($0)") } ?? .null),
                ("end_date", status.lastDay.map { .string("\($0)") } ?? .null),
                ("publish_cadence", .string("daily")),
                ("publishes_missed", .number(Double(status.missingBusinessDays.count))),
                ("currencies", .array(codes.sorted().map { .string($0) })),
            ])
            return (.json(.array([provider]), token: token, freshness: .current), "v2/providers")
        default:
            throw ServiceError(status: 404, "not found")
        }
    }

    // MARK: Rates

    /// How `/v2/rates` writes its records.
    enum RecordFormat { case json, ndjson, csv }

    /// `/v2/currencies`' `scope`.
    enum Scope: String, CaseIterable { case all }

    /// `/v2/rates`: the newest publication, one day's, or every publication of a range (or its
    /// weekly or monthly means).
    private func rates(_ parameters: inout RequestParameters, format: RecordFormat, now: Date) throws -> EndpointAnswer
    {
        let day = try parameters.day("date")
        let from = try parameters.day("from"), to = try parameters.day("to")
        let base = try parameters.currency("base") ?? "EUR"
        let quotes = try parameters.currencies("quotes")
        let group = try parameters.choice("group", SeriesGrouper.Period.self)
        // Ours, beside Frankfurter's: a range the store lacks published days of is answered from
        // what it holds (the advice of `incomplete-range` names it).
        let partial = try parameters.flag("partial")
        try Self.checkProviders(&parameters)
        if let expand = parameters.text("expand") {
            throw ServiceError(status: 422, "invalid expand: \(expand) (one provider, the ECB: nothing to expand)")
        }
        try parameters.checkAllRead()
        if day != nil && (from != nil || to != nil) {
            throw ServiceError(status: 422, "conflicting params: date with from/to")
        }
        if to != nil && from == nil { throw ServiceError(status: 422, "parameter to needs from") }
        if group != nil && from == nil {
            throw ServiceError(status: 422, "parameter group applies to ranges (from, to) only")
        }
        if let from, let to, from > to {
            throw ServiceError(status: 422, "the range \(from)..\(to) ends before it starts")
        }
        let (records, freshness, token): ([RateRecord], EndpointAnswer.Freshness, HistoryToken?)
        if let from {
            ((records, freshness), token) = try store.readSnapshot(now: now, fixedConversionRates: false) { queries in
                let newest = try queries.bounds().last
                // An open range ends at the newest stored day; an asked end is kept (up to
                // today), so that days the store lacks are refused by name, not cut off.
                let end = to.map { min($0, TargetCalendar.today(at: now)) } ?? newest
                return (
                    try rangeRecords(queries, quotes, base: base, from: from, to: end, group: group, partial: partial),
                    to.map { $0 >= newest } ?? true ? .current : .past
                )
            }
        } else {
            ((records, freshness), token) = try store.readSnapshot(now: now, fixedConversionRates: false) { queries in
                let newest = try queries.bounds().last
                let records = try self.records(queries, quotes, base: base, day: day)
                return (records, day == nil || (records.map(\.day).max() ?? newest) >= newest ? .current : .past)
            }
        }
        switch format {
        case .json: return .json(.array(records.map(\.json)), token: token, freshness: freshness)
        case .ndjson:
            var body = ""
            for record in records {
                record.json.write(to: &body)
                body += "\n"
            }
            return EndpointAnswer(body: body, contentType: "application/x-ndjson", token: token, freshness: freshness)
        case .csv:
            var body = records.isEmpty ? "" : CSVText.line(["date", "base", "quote", "rate"])
            for record in records {
                body += CSVText.line(["\(record.day)", record.base, record.quote, record.rate.text])
            }
            return EndpointAnswer(
                body: body, contentType: "text/csv; charset=utf-8", token: token, freshness: freshness)
        }
    }

    /// One day's records (the newest for nil), each dated by the publication that answers it;
    /// the base's own record (rate 1) first among them when `quotes` allows it.
    private func records(
        _ queries: RateQueries, _ quotes: [String]?, base: String, day: CalendarDay?
    ) throws -> [RateRecord] {
        let others = quotes?.filter { $0 != base }
        let answers = try queries.rates(others, on: day, base: base)
        var records = answers.map {
            RateRecord(day: $0.leadLeg.day, base: base, quote: $0.currency, rate: FrankfurterV1.value($0, amount: 1))
        }
        if quotes == nil || quotes!.contains(base) {
            // The base's own record is dated as the others are: by the publication that answers.
            let used = try records.map(\.day).max() ?? queries.rates(nil, on: day, base: base).first?.leadLeg.day
            guard let used else { throw ServiceError(status: 404, "not found") }
            records.append(RateRecord(day: used, base: base, quote: base, rate: .decimal(1)))
        }
        return records.sorted { ($0.day, $0.quote) < ($1.day, $1.quote) }
    }

    /// Every publication from `from` through `to`, or one record per week or month (the mean).
    private func rangeRecords(
        _ queries: RateQueries, _ quotes: [String]?, base: String, from: CalendarDay, to: CalendarDay,
        group: SeriesGrouper.Period?, partial: Bool
    ) throws -> [RateRecord] {
        let first = try queries.bounds().first
        let start = max(from, first)
        guard start <= to else { throw ServiceError(status: 404, "no rates from \(from) to \(to)") }
        let codes =
            try quotes?.filter { $0 != base }
            ?? queries.currencies().filter { $0.firstDay <= to && $0.lastDay >= start && $0.code != base }.map(\.code)
        try RangeLimit.check(from: start, to: to, currencies: codes.count + 1)
        let withIdentity = quotes == nil || quotes!.contains(base)
        // Only the base's own records asked for: the days come from a column not written (the
        // base's own, or any currency of the range for the euro).
        var columns = codes
        if codes.isEmpty {
            let any = try queries.currencies().first { $0.firstDay <= to && $0.lastDay >= start }?.code
            guard let column = base == "EUR" ? any : base else {
                throw ServiceError(status: 404, "no rates from \(from) to \(to)")
            }
            columns = [column]
        }
        var table = try queries.series(columns, from: start, to: to, base: base, partial: partial)
        if let group {
            var rows: [SeriesTable.Row] = []
            var grouper = SeriesGrouper(period: group, statistic: .mean, columns: table.currencies.count) {
                rows.append($0)
            }
            for row in table.rows { try grouper.add(row) }
            try grouper.finish()
            table = SeriesTable(currencies: table.currencies, rows: rows, base: table.base)
        }
        let published = group == nil && table.base == "EUR"
        var records: [RateRecord] = []
        for row in table.rows {
            var day: [RateRecord] = []
            guard row.rates.contains(where: { $0 != nil }) else { continue }
            for (index, code) in table.currencies.enumerated() where !codes.isEmpty {
                guard let rate = row.rates[index] else { continue }
                day.append(
                    RateRecord(
                        day: row.day, base: base, quote: code,
                        rate: FrankfurterV1.value(rate, published: published, amount: 1)))
            }
            if withIdentity { day.append(RateRecord(day: row.day, base: base, quote: base, rate: .decimal(1))) }
            records += day.sorted { $0.quote < $1.quote }
        }
        return records
    }

    // MARK: Helpers

    /// A currency code in a path, upper-cased.
    private static func code(_ text: String) throws -> String {
        let code = text.uppercased()
        guard QuestionField.isCurrencyCode(code) else {
            throw ServiceError(status: 422, "invalid currency: \(text)", code: "bad-parameter")
        }
        return code
    }

    /// `providers`: the ECB is the only one.
    private static func checkProviders(_ parameters: inout RequestParameters) throws {
        guard let value = parameters.text("providers") else { return }
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
