import ECBRates
import EurofxrefFeed
import Foundation

/// `GET /` for a browser: one page with the newest day's rates, a converter, a chart, the
/// server's status and the API's documentation. Every number on it is a question's answer,
/// asked through the same layer as `/api/` and the command line (``Question``), from one state
/// of the store; a form's fields are read and refused as `/api/`'s parameters are (the same
/// messages and codes). It works without JavaScript: the forms are `GET` forms on `/`, and a
/// small script of ours (``PageAssets``) only saves the reload.
///
/// Its query: the converter's `amount`, `from`, `to`, `date` and `fallback` (`/api/convert`'s
/// names), and the chart's `currencies`, `start`, `end`, `group`, `statistic` and `partial`
/// (`/api/series`' `from` and `to` are `start` and `end` here, the converter having the first
/// two). A field left empty is not given.
struct HomePage {
    let store: RatesStore
    let storeLocation: StoreLocation?
    /// The server's version, as the OpenAPI document names it.
    let version: String

    /// The converter's parameters: `/api/convert`'s own.
    static let converterNames: [FrankfurterParameters.Name] = ["amount", "from", "to", "date", "fallback"].map {
        FrankfurterParameters.Name($0, field: ConvertQuestion.field($0))
    }

    /// The chart's parameters, and the series fields they give values to.
    static let chartNames: [FrankfurterParameters.Name] = [
        .init("currencies", field: SeriesQuestion.field("currencies")),
        .init("start", field: SeriesQuestion.field("from")), .init("end", field: SeriesQuestion.field("to")),
        .init("group", field: SeriesQuestion.field("group")),
        .init("statistic", field: SeriesQuestion.field("statistic")),
        .init("partial", field: SeriesQuestion.field("partial")),
    ]

    /// What a section shows: nothing asked, an answer, or a refusal with its code and status.
    enum Outcome<Answer: RenderableAnswer> {
        case notAsked
        case answered(Answered<Answer>)
        case failed(Failure)

        var failure: Failure? {
            if case .failed(let failure) = self { return failure }
            return nil
        }
    }

    /// A refusal as every door gives it: `/api/`'s message, code and status.
    struct Failure: Error {
        let message: String
        let code: String
        let status: Int

        init(_ error: any Error, door: Door = .api) {
            status = ServiceError.status(of: error)
            message = ServiceError.message(of: error, door: door)
            code = ServiceError.code(of: error, status: status)
        }
    }

    /// The page's questions, read from the request before the store is read.
    struct Asked {
        /// The query's values as given (for the forms to show them again), empty ones left out.
        var given: [String: String] = [:]
        /// A parameter no form has, or one given twice.
        var refusal: Failure?
        var convert: Result<ConvertQuestion, Failure>?
        var chart: Result<SeriesQuestion, Failure>
    }

    /// How the chart's refusals name its fields: as the form does.
    static let chartDoor = Door.page(
        renamed: Dictionary(uniqueKeysWithValues: chartNames.map { ($0.field.name, $0.names[0]) }))

    /// The default chart: the US dollar over the year before the newest stored day.
    static let defaultChart = ["currencies": "USD"]

    /// The page for `request`.
    func answer(_ request: HTTPRequest, now: Date) throws -> EndpointAnswer {
        let asked = Self.read(request)
        let context = QuestionContext(store: store.url, storeLocation: storeLocation)
        let (page, token) = try store.readSnapshot(now: now) { queries in
            func outcome<Q: Question>(_ question: Result<Q, Failure>?, door: Door = .api) -> Outcome<Q.Answer> {
                switch question {
                case nil: return .notAsked
                case .failure(let failure): return .failed(failure)
                case .success(let question):
                    do { return .answered(try question.answered(queries, context: context)) } catch {
                        return .failed(Failure(error, door: door))
                    }
                }
            }
            return PageContent(
                given: asked.given, refusal: asked.refusal,
                latest: outcome(.success(LatestQuestion(QuestionInput()))),
                currencies: outcome(.success(CurrenciesQuestion(QuestionInput()))),
                convert: outcome(asked.convert), chart: outcome(asked.chart, door: Self.chartDoor),
                chartRange: (try? asked.chart.get()).flatMap { try? $0.range(queries) },
                storeStatus: outcome(.success(StatusQuestion(QuestionInput()))), version: version)
        }
        var answer = EndpointAnswer(
            body: page.html, contentType: "text/html; charset=utf-8", token: token, freshness: .current)
        answer.status = page.httpStatus
        answer.headers = PageAssets.pageHeaders
        return answer
    }

    /// The questions of `request`'s query: the converter's when any of its fields is given, the
    /// chart's (its defaults when none is).
    static func read(_ request: HTTPRequest) -> Asked {
        let parameters = request.query.filter { !$0.value.isEmpty }
        var given: [String: String] = [:]
        for parameter in parameters where given[parameter.name] == nil { given[parameter.name] = parameter.value }
        let converterKeys = Set(converterNames.flatMap(\.names)), chartKeys = Set(chartNames.flatMap(\.names))
        var refusal: Failure?
        if let unknown = parameters.first(where: { !converterKeys.contains($0.name) && !chartKeys.contains($0.name) }) {
            refusal = Failure(QuestionRefusal(.unknown(name: unknown.name, given: unknown.value)))
        }
        let known = parameters.filter { converterKeys.contains($0.name) || chartKeys.contains($0.name) }
        var convert: Result<ConvertQuestion, Failure>?
        if known.contains(where: { converterKeys.contains($0.name) }) {
            convert = Result {
                try ConvertQuestion.asking(FrankfurterParameters.input(known, converterNames, handled: chartKeys))
            }.mapError { Failure($0) }
        }
        let chartQuery =
            known.contains(where: { chartKeys.contains($0.name) })
            ? known : known + defaultChart.map { (name: $0.key, value: $0.value) }
        let chart = Result {
            try SeriesQuestion.asking(FrankfurterParameters.input(chartQuery, chartNames, handled: converterKeys))
        }.mapError { Failure($0, door: chartDoor) }
        return Asked(given: given, refusal: refusal, convert: convert, chart: chart)
    }
}
