import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization

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
///
/// What does not depend on the query (the newest rates, the currencies, the status, the API's
/// documentation) is made once per state of the store and calendar day, not per page: a page
/// of another conversion asks only its own questions.
final class HomePage: Sendable {
    let store: RatesStore
    let storeLocation: StoreLocation?
    /// The server's version, as the OpenAPI document names it.
    let version: String
    /// The API's documentation and the MCP tools, made once.
    let reference: String
    /// The answers every page shows, with the state of the store and the day they were read at.
    private let shared = Mutex<Shared?>(nil)

    /// The answers every page shows, whatever its query, and the state and day they are of.
    struct Shared: Sendable {
        let token: HistoryToken
        let today: CalendarDay
        let due: CalendarDay
        let answers: Common
    }

    /// The newest rates, the currencies and the status.
    struct Common: Sendable {
        let latest: Outcome<RatesAnswer>
        let currencies: Outcome<CurrencyList>
        let storeStatus: Outcome<StoreStatus>
    }

    /// What one read of the store answered: the query's questions, and the common answers
    /// unless they were known.
    struct Read {
        let convert: Outcome<ConversionAnswer>
        let chart: Outcome<SeriesTable>
        let chartRange: (first: CalendarDay, last: CalendarDay)?
        let common: Common?
    }

    /// The page of `store` (found at `storeLocation`) for a server of `version`.
    init(store: RatesStore, storeLocation: StoreLocation?, version: String) {
        self.store = store
        self.storeLocation = storeLocation
        self.version = version
        reference = PageContent.apiSection(version: version) + PageContent.mcpSection
    }

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
    enum Outcome<Answer: RenderableAnswer & Sendable>: Sendable {
        case notAsked
        case answered(Answered<Answer>)
        case failed(Failure)

        var failure: Failure? {
            if case .failed(let failure) = self { return failure }
            return nil
        }
    }

    /// A refusal as every door gives it: `/api/`'s message, code and status.
    struct Failure: Error, Sendable {
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
        /// A parameter no form has (one given twice is its form's refusal).
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
        let (today, due) = (TargetCalendar.today(at: now), TargetCalendar.latestDueDay(at: now))
        var known = shared.withLock { $0 }.flatMap { $0.today == today && $0.due == due ? $0 : nil }
        var (read, token) = try self.read(asked, now: now, knowing: known != nil)
        if known != nil && token != known?.token {
            // A commit since the common answers were read: a page is one state of the store.
            known = nil
            (read, token) = try self.read(asked, now: now, knowing: false)
        }
        guard let common = known?.answers ?? read.common else { preconditionFailure("read without common answers") }
        if known == nil, let token {
            shared.withLock { $0 = Shared(token: token, today: today, due: due, answers: common) }
        }
        let page = PageContent(
            given: asked.given, refusal: asked.refusal, latest: common.latest, currencies: common.currencies,
            convert: read.convert, chart: read.chart, chartRange: read.chartRange, storeStatus: common.storeStatus,
            version: version, reference: reference)
        var answer = EndpointAnswer(
            body: page.html, contentType: "text/html; charset=utf-8", token: token, freshness: .current)
        answer.status = page.httpStatus
        answer.headers = PageAssets.pageHeaders
        return answer
    }

    /// `asked`'s questions, and the common answers unless they are `known`, from one state of
    /// the store, and that state's token.
    private func read(_ asked: Asked, now: Date, knowing known: Bool) throws -> (Read, HistoryToken?) {
        let context = QuestionContext(store: store.url, storeLocation: storeLocation)
        return try store.readSnapshot(now: now) { queries in
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
            let common =
                known
                ? nil
                : Common(
                    latest: outcome(.success(LatestQuestion())),
                    currencies: outcome(.success(CurrenciesQuestion())),
                    storeStatus: outcome(.success(StatusQuestion())))
            return Read(
                convert: outcome(asked.convert), chart: outcome(asked.chart, door: Self.chartDoor),
                chartRange: (try? asked.chart.get()).flatMap { try? $0.range(queries) }, common: common)
        }
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
