import ECBRates
import EurofxrefFeed
import Foundation

/// `/api/<question>`: every ``Question``, its fields as query parameters (named and checked as
/// the question declares them), answered with exactly the JSON (or CSV, NDJSON) that the command
/// line's `--format` prints, warnings included, by the same question value and renderer.
struct NativeAPI {
    let store: RatesStore
    /// Which store it is, and why (what `/api/status` says), when the server was told.
    var storeLocation: StoreLocation? = nil

    /// The answer to `request` at `path` (after `/api/`).
    func answer(_ path: String, _ request: HTTPRequest, now: Date) throws -> (EndpointAnswer, route: String) {
        guard let question = Questions.named(path) else {
            let names = Questions.all.map { $0.name }.joined(separator: ", ")
            throw ServiceError(status: 404, "no endpoint /api/\(path); the API has \(names) and openapi.json")
        }
        return (try question.answer(through: self, request, now: now), "api/\(path)")
    }

    /// The answer to `request` as `Q`.
    func answer<Q: Question>(_: Q.Type, _ request: HTTPRequest, now: Date) throws -> EndpointAnswer {
        let format = try Self.format(request)
        let parameters = request.query.filter { $0.name != "format" }.map { (name: $0.name, value: $0.value) }
        let question = try Q.asking(try QuestionInput.reading(Q.fields, parameters: parameters))
        let asked = try ask(question, now: now)
        // Long-lived only when every day it is about is before the newest stored one and it is
        // whole: the newest day, a day after it ("not out yet"), or a partial range changes with
        // the next publication or import.
        let past = question.lastDayAsked.map { day in asked.newest.map { day < $0 } ?? false } ?? false
        let freshness: EndpointAnswer.Freshness =
            !Q.isCacheable ? .uncached : past && !asked.isIncomplete ? .past : .current
        var endpoint = EndpointAnswer.rendered(
            asked.answered, as: format, token: Q.isCacheable ? asked.token : nil, freshness: freshness)
        // CSV and JSON lines have no room for warnings: a header says them (JSON has them inside).
        if format != .json { endpoint.warningCodes = asked.answered.warnings.map(\.code) }
        return endpoint
    }

    /// A question's answer, with what a door needs besides: the newest stored day of the state
    /// it was read from, and that state's history token (nil when a commit landed meanwhile).
    struct Asked<Q: Question> {
        /// The answer and its warnings.
        var answered: Answered<Q.Answer>
        /// The newest stored day, when the store has one.
        var newest: CalendarDay?
        /// The history token of the state read.
        var token: HistoryToken?

        /// Whether it may change before the next publication: it lacks days, or the store is stale.
        var isIncomplete: Bool {
            answered.warnings.contains { $0.code == "incomplete-answer" || $0.code == "stale-store" }
        }
    }

    /// `question`'s answer, from the store as of its `as_of` when it has one. `prepare` sets
    /// what depends on the store (Frankfurter's "every currency of the range") from the same
    /// state the answer is read from; `fixedConversionRates` false answers from the ECB's
    /// rates alone, as Frankfurter's APIs do.
    func ask<Q: Question>(
        _ question: Q, now: Date, fixedConversionRates: Bool = true,
        prepare: ((inout Q, RateQueries) throws -> Void)? = nil
    ) throws -> Asked<Q> {
        let source = try question.asOf.map { try store.asOf($0, now: now) } ?? store
        let context = QuestionContext(store: store.url, storeLocation: storeLocation)
        let ((answered, newest), token) = try source.readSnapshot(now: now, fixedConversionRates: fixedConversionRates)
        {
            queries in
            var question = question
            try prepare?(&question, queries)
            var answered = try question.answered(queries, context: context)
            // As of today is as of now: the answer names the moment used.
            answered.asOf = source.asOf
            return (answered, try? queries.bounds().last)
        }
        return Asked(answered: answered, newest: newest, token: token)
    }

    /// `format`, beside every question's fields: how `/api/` writes the answer.
    static let formatField = QuestionField(
        name: "format", kind: .choice(OutputFormat.programFormats.map(\.rawValue)),
        help: "json, csv or ndjson (default: by the Accept header, else json).")

    /// The format asked for: `format=json|csv|ndjson`, else the `Accept` header, else JSON.
    static func format(_ request: HTTPRequest) throws -> OutputFormat {
        let given = request.query.filter { $0.name == formatField.name }.map { (name: $0.name, value: $0.value) }
        let input = try QuestionInput.reading([formatField], parameters: given)
        if let format = input.choice(formatField.name, OutputFormat.self) { return format }
        let accept = request.header("accept") ?? ""
        if accept.contains("application/x-ndjson") { return .ndjson }
        if accept.contains("text/csv") { return .csv }
        return .json
    }
}

extension Question {
    /// The answer to `request` as this question, by `api` (a static member, so that a question
    /// known only as `any Question.Type` is asked with its own type).
    static func answer(through api: NativeAPI, _ request: HTTPRequest, now: Date) throws -> EndpointAnswer {
        try api.answer(Self.self, request, now: now)
    }
}
