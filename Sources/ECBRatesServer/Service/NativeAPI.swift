import ECBRates
import EurofxrefFeed
import Foundation

/// `/api/…`: every query the command line answers, with its options as parameters (`date`,
/// `base`, `fallback`, `as_of`, …), answered with exactly the JSON (or CSV, NDJSON) that
/// `--format` prints, by the same answer values and renderer.
struct NativeAPI {
    let store: RatesStore
    /// Which store it is, and why (what `/api/status` says), when the server was told.
    var storeLocation: StoreLocation? = nil

    /// The answer to `request` at `path` (after `/api/`).
    func answer(_ path: String, _ request: HTTPRequest, now: Date) throws -> (EndpointAnswer, route: String) {
        var parameters = RequestParameters(request)
        let format = try Self.format(&parameters, request: request)
        let asOf = try parameters.moment("as_of")
        if let asOf, asOf > now {
            throw ServiceError(status: 400, "parameter as_of=\(AsOfMoment.text(asOf)) is in the future")
        }
        let source = try asOf.map { try store.asOf($0) } ?? store
        switch path {
        case "rate":
            let codes = try parameters.currencies("currencies", "currency")
            let day = try parameters.day("date")
            let base = try parameters.currency("base") ?? "EUR"
            let fallback = try parameters.choice("fallback", RateFallback.self) ?? .previous
            try parameters.checkAllRead()
            let (answers, token) = try source.readSnapshot(now: now) {
                try $0.rates(codes, on: day, base: base, fallback: fallback)
            }
            let freshness: EndpointAnswer.Freshness = day == nil ? .current : .past
            if codes?.count == 1, let answer = answers.first {
                return (.rendered(answer, as: format, token: token, freshness: freshness), "api/rate")
            }
            return (
                .rendered(RatesAnswer(base: base, rates: answers), as: format, token: token, freshness: freshness),
                "api/rate"
            )
        case "convert":
            guard let amount = try parameters.amount("amount") else {
                throw ServiceError(status: 400, "parameter amount is required (like amount=100)")
            }
            let amountText = parameters.text("amount") ?? ""
            guard let from = try parameters.currency("from"), let to = try parameters.currency("to") else {
                throw ServiceError(status: 400, "parameters from and to are required (like from=USD&to=JPY)")
            }
            let day = try parameters.day("date")
            let fallback = try parameters.choice("fallback", RateFallback.self) ?? .previous
            let precision = try parameters.count("precision", atMost: ConversionAnswer.maximumPrecision)
            try parameters.checkAllRead()
            var (answer, token) = try source.readSnapshot(now: now) {
                try $0.convert(amount, from: from, to: to, on: day, fallback: fallback, precision: precision)
            }
            answer.amountText = amountText
            return (
                .rendered(answer, as: format, token: token, freshness: day == nil ? .current : .past), "api/convert"
            )
        case "latest":
            let codes = try parameters.currencies("currencies")
            let base = try parameters.currency("base") ?? "EUR"
            try parameters.checkAllRead()
            let (answers, token) = try source.readSnapshot(now: now) { try $0.rates(codes, on: nil, base: base) }
            return (
                .rendered(RatesAnswer(base: base, rates: answers), as: format, token: token, freshness: .current),
                "api/latest"
            )
        case "series":
            guard let codes = try parameters.currencies("currencies") else {
                throw ServiceError(status: 400, "parameter currencies is required (like currencies=USD,GBP)")
            }
            let from = try parameters.day("from"), to = try parameters.day("to")
            let base = try parameters.currency("base") ?? "EUR"
            let period = try parameters.choice("group", SeriesGrouper.Period.self)
            let statistic = try parameters.choice("statistic", SeriesGrouper.Statistic.self)
            let partial = try parameters.flag("partial")
            try parameters.checkAllRead()
            if let from, let to, from > to {
                throw ServiceError(status: 400, "parameter from=\(from) is after to=\(to)")
            }
            if statistic != nil && period == nil {
                throw ServiceError(status: 400, "parameter statistic needs group (week or month)")
            }
            var (table, token) = try source.readSnapshot(now: now) { queries in
                let end = try to ?? queries.bounds().last
                return try queries.series(
                    codes, from: from ?? end.adding(days: -365), to: end, base: base, partial: partial)
            }
            if let period {
                let grouping = SeriesTable.Grouping(period: period, statistic: statistic ?? .mean)
                var rows: [SeriesTable.Row] = []
                var grouper = SeriesGrouper(
                    period: period, statistic: grouping.statistic, columns: table.currencies.count
                ) { rows.append($0) }
                for row in table.rows { try grouper.add(row) }
                try grouper.finish()
                table = SeriesTable(currencies: table.currencies, rows: rows, missing: table.missing, base: table.base)
                table.grouping = grouping
            }
            return (.rendered(table, as: format, token: token, freshness: to == nil ? .current : .past), "api/series")
        case "stats":
            guard let currency = try parameters.currency("currency") else {
                throw ServiceError(status: 400, "parameter currency is required (like currency=USD)")
            }
            let from = try parameters.day("from"), to = try parameters.day("to")
            let base = try parameters.currency("base") ?? "EUR"
            let partial = try parameters.flag("partial")
            try parameters.checkAllRead()
            let (stats, token) = try source.readSnapshot(now: now) { queries in
                let bounds = try queries.bounds()
                return try queries.stats(
                    currency, from: from ?? bounds.first, to: to ?? bounds.last, base: base, partial: partial)
            }
            return (.rendered(stats, as: format, token: token, freshness: to == nil ? .current : .past), "api/stats")
        case "currencies":
            try parameters.checkAllRead()
            let (list, token) = try source.readSnapshot(now: now) { try $0.currencies() }
            return (.rendered(CurrencyList(list), as: format, token: token, freshness: .current), "api/currencies")
        case "corrections":
            let currency = try parameters.currency("currency")
            let since = try parameters.day("since")
            try parameters.checkAllRead()
            let (list, token) = try source.readSnapshot(now: now) {
                try $0.corrections(currency: currency, since: since)
            }
            return (
                .rendered(
                    CorrectionList(list, currency: currency, since: since), as: format, token: token,
                    freshness: .current), "api/corrections"
            )
        case "status":
            try parameters.checkAllRead()
            var (status, _) = try source.readSnapshot(now: now) { try $0.status() }
            status.store = store.url.path
            status.storeLocation = storeLocation
            return (.rendered(status, as: format, token: nil, freshness: .uncached), "api/status")
        default:
            throw ServiceError(
                status: 404,
                "no endpoint /api/\(path); the API has rate, convert, latest, series, stats, currencies, corrections, status"
            )
        }
    }

    /// The format asked for: `format=json|csv|ndjson`, else the `Accept` header, else JSON.
    static func format(_ parameters: inout RequestParameters, request: HTTPRequest) throws -> OutputFormat {
        if let format = try parameters.choice("format", OutputFormat.self) {
            guard format == .json || format == .csv || format == .ndjson else {
                throw ServiceError.badParameter("format", format.rawValue, expected: "one of json, csv, ndjson")
            }
            return format
        }
        let accept = request.header("accept") ?? ""
        if accept.contains("application/x-ndjson") { return .ndjson }
        if accept.contains("text/csv") { return .csv }
        return .json
    }
}
