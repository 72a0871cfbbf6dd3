import ECBRates
import Foundation

/// A request the service refuses, with its status and message; and how any error becomes a
/// status (the one place failures meet HTTP).
public struct ServiceError: Error, Sendable {
    /// The HTTP status (400, 404, 422, …).
    public let status: Int
    /// What was wrong, naming the parameter and the value.
    public let message: String

    /// A refusal with `status` and `message`.
    public init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A 400 for parameter `name` with `value`, saying what was expected.
    static func badParameter(_ name: String, _ value: String, expected: String) -> ServiceError {
        ServiceError(status: 400, "parameter \(name)=\(value) is not \(expected)")
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
            case .inexact: return 422
            case .asOfBeforeRecord: return 400
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

    /// A JSON error response in our own API's shape (`{"error":…,"exitStatus":…}`, as
    /// `--format json` prints errors).
    static func response(status: Int, _ message: String) -> HTTPResponse {
        let answer = ErrorAnswer(message: message, status: Int32(exitStatus(forHTTP: status)))
        return HTTPResponse(status: status, contentType: "application/json", text: answer.json.text + "\n")
    }

    /// The command line's exit status for the same failure (64 usage, 65 data, 69 unavailable,
    /// 70 software).
    static func exitStatus(forHTTP status: Int) -> Int {
        switch status {
        case 400, 405, 413, 414, 431: 64
        case 404, 422: 65
        case 503: 69
        default: 70
        }
    }
}
