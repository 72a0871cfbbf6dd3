import ECBRates
import Foundation

/// A request the service refuses, with its status and message; and how any error becomes a
/// status (the one place failures meet HTTP).
public struct ServiceError: Error, Sendable {
    /// The HTTP status (400, 404, 422, …).
    public let status: Int
    /// What was wrong, naming the parameter and the value.
    public let message: String
    /// The failure's kind for programs, when more precise than the status's.
    public let code: String?

    /// A refusal with `status` and `message` (and `code`, the kind).
    public init(status: Int, _ message: String, code: String? = nil) {
        self.status = status
        self.message = message
        self.code = code
    }

    /// A 400 for parameter `name` with `value`, saying what was expected.
    static func badParameter(_ name: String, _ value: String, expected: String) -> ServiceError {
        ServiceError(status: 400, "parameter \(name)=\(value) is not \(expected)", code: "bad-parameter")
    }

    /// The status `error` is answered with: a refusal's own; a query's by what it means (an
    /// unknown currency, a day with no rate: 404; an answer that cannot be exact: 422; a store
    /// that is empty, behind or busy: 503); any other failure: 500.
    static func status(of error: any Error) -> Int {
        switch error {
        case let error as ServiceError: return error.status
        case let error as QueryError:
            switch error {
            case .emptyStore, .staleStore, .asOfDuringImport: return 503
            case .inexact, .tooManyDigits: return 422
            case .asOfBeforeRecord, .asOfFuture: return 400
            case .asOfBeforeFirstImport: return 404
            case .unknownCurrency: return 404
            default: return error.isUsageError ? 400 : 404
            }
        default:
            switch FailureKind(error) {
            case .usage: return 400
            case .dataError: return 422
            case .tryAgainLater: return 503
            default: return 500
            }
        }
    }

    /// The message of `error`, as the command line would print it.
    static func message(of error: any Error) -> String {
        (error as? ServiceError)?.message ?? FailureText.describe(error)
    }

    /// The stable word a program tests for `error` (`unknown-currency`, `bad-parameter`, …):
    /// a query's own kind, else one per status.
    static func code(of error: any Error, status: Int) -> String {
        if let error = error as? ServiceError, let code = error.code { return code }
        if let error = error as? QueryError { return error.code }
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
