import ECBRates
import Foundation

/// A request the service refuses, with its status and message; and how any error becomes a
/// status (the one place failures meet HTTP).
package struct ServiceError: Error, Sendable {
    /// The HTTP status (400, 404, 422, …).
    package let status: Int
    /// What was wrong, naming the parameter and the value.
    package let message: String
    /// The failure's kind for programs, when more precise than the status's.
    package let code: String?

    /// A refusal with `status` and `message` (and `code`, the kind).
    package init(status: Int, _ message: String, code: String? = nil) {
        self.status = status
        self.message = message
        self.code = code
    }

    /// A 400 for parameter `name` with `value`, saying what was expected.
    static func badParameter(_ name: String, _ value: String, expected: String) -> ServiceError {
        ServiceError(status: 400, "parameter \(name)=\(value) is not \(expected)", code: "bad-parameter")
    }

    /// The status `error` is answered with: a refusal's own; a question's or a query's by its
    /// code (``status(forCode:)``, one status per code); any other failure by its kind (a
    /// usage error 400, bad data 422, try again later 503, else 500).
    static func status(of error: any Error) -> Int {
        if let error = error as? ServiceError { return error.status }
        if error is QueryError || error is QuestionRefusal, let status = status(forCode: FailureKind.code(of: error)) {
            return status
        }
        switch FailureKind(error) {
        case .usage: return 400
        case .dataError: return 422
        case .tryAgainLater: return 503
        default: return 500
        }
    }

    /// The one HTTP status of each code a question's answer may fail with: the question is
    /// wrong (400); the store has no such answer (404); its parameters, each well-formed,
    /// together ask what has no answer (`statistic` without `group`, `from` after `to`), the
    /// answer cannot be exact, or a row of a posted CSV is not good data (422, as `convert
    /// --input` exits 65 on it); the
    /// store cannot answer now: it is empty, lacks days the ECB has published, or was being
    /// written at the moment asked about (503). The OpenAPI document lists them.
    static func status(forCode code: String) -> Int? {
        switch code {
        case "bad-parameter", "usage", "as-of-before-record": 400
        case "unknown-currency", "before-first-day", "future-day", "as-of-future", "not-quoted", "not-yet-published",
            "no-rate-on-day",
            "no-rates-in-range", "hole", "as-of-before-first-import":
            404
        case "inexact", "too-many-digits", "bad-data", "conflicting-parameters": 422
        case "empty-store", "stale-store", "incomplete-range", "as-of-during-import": 503
        default: nil
        }
    }

    /// The message of `error`, in the words of `door` (the API's, unless MCP asks).
    static func message(of error: any Error, door: Door = .api) -> String {
        (error as? ServiceError)?.message ?? FailureText.describe(error, door: door)
    }

    /// The stable word a program tests for `error` (`unknown-currency`, `bad-parameter`, …):
    /// a question's or query's own kind, else one per status.
    static func code(of error: any Error, status: Int) -> String {
        if let error = error as? ServiceError, let code = error.code { return code }
        if error is QueryError || error is QuestionRefusal { return FailureKind.code(of: error) }
        return code(forStatus: status)
    }

    /// The word for a refusal known only by its status.
    static func code(forStatus status: Int) -> String {
        switch status {
        case 400: "bad-request"
        case 404: "not-found"
        case 405: "method-not-allowed"
        case 406: "not-acceptable"
        case 413: "body-too-large"
        case 414: "target-too-long"
        case 422: "unprocessable"
        case 431: "headers-too-large"
        case 503: "unavailable"
        default: "internal"
        }
    }

    /// The one error body of every endpoint: Frankfurter's `{"message":…,"status":…}` and our
    /// `code`, the failure's kind.
    static func response(status: Int, _ message: String, code: String? = nil) -> HTTPResponse {
        let body = JSONText.object([
            ("message", .string(message)), ("status", .number(Double(status))),
            ("code", .string(code ?? Self.code(forStatus: status))),
        ])
        return HTTPResponse(status: status, contentType: "application/json", text: body.text + "\n")
    }
}
