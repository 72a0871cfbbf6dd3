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
        let ((answered, newest), token) = try ask(question, now: now, newest: true)
        // Long-lived only when every day it is about is before the newest stored one and it is
        // whole: the newest day, a day after it ("not out yet"), or a partial range changes with
        // the next publication or import.
        let incomplete = answered.warnings.contains { $0.code == "incomplete-answer" || $0.code == "stale-store" }
        let past = question.lastDayAsked.map { asked in newest.map { asked < $0 } ?? false } ?? false
        let freshness: EndpointAnswer.Freshness =
            !Q.isCacheable ? .uncached : past && !incomplete ? .past : .current
        var endpoint = EndpointAnswer.rendered(
            answered, as: format, token: Q.isCacheable ? token : nil, freshness: freshness)
        // CSV and JSON lines have no room for warnings: a header says them (JSON has them inside).
        if format != .json { endpoint.warningCodes = answered.warnings.map(\.code) }
        return endpoint
    }

    /// `question`'s answer, from the store as of its `as_of` when it has one, with the history
    /// token of the state it was read from.
    func ask<Q: Question>(_ question: Q, now: Date) throws -> (Answered<Q.Answer>, HistoryToken?) {
        let ((answered, _), token) = try ask(question, now: now, newest: false)
        return (answered, token)
    }

    /// ``ask(_:now:)``, with the newest stored day of the same state when `newest`.
    private func ask<Q: Question>(
        _ question: Q, now: Date, newest: Bool
    ) throws -> (
        (Answered<Q.Answer>, CalendarDay?), HistoryToken?
    ) {
        if let asOf = question.asOf, asOf > now { throw QueryError.asOfFuture(moment: asOf, now: now) }
        let source = try question.asOf.map { try store.asOf($0) } ?? store
        let context = QuestionContext(store: store.url, storeLocation: storeLocation)
        return try source.readSnapshot(now: now) { queries in
            (try question.answered(queries, context: context), newest ? try? queries.bounds().last : nil)
        }
    }

    /// The format asked for: `format=json|csv|ndjson`, else the `Accept` header, else JSON.
    static func format(_ request: HTTPRequest) throws -> OutputFormat {
        let given = request.query.filter { $0.name == "format" }
        if given.count > 1 {
            throw ServiceError(
                status: 400, "parameter format is given more than once; give it once", code: "bad-parameter")
        }
        if let value = given.first?.value {
            guard let format = OutputFormat(rawValue: value.lowercased()),
                format == .json || format == .csv || format == .ndjson
            else {
                throw ServiceError.badParameter("format", value, expected: "one of json, csv, ndjson")
            }
            return format
        }
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
