import EurofxrefFeed
import Foundation
import ManagedStore

/// What kind of failure an error is, for a front-end to act on: the command line turns it into
/// an exit code (sysexits), the server into an HTTP status. The one place where the errors of
/// every layer below (the reader, the fetcher, the import, the store, the queries) are sorted.
///
/// ```swift
/// switch FailureKind(error) {
/// case .tryAgainLater: retry()
/// default: report(FailureText.describe(error))
/// }
/// ```
public enum FailureKind: Sendable, Equatable {
    /// Whether `error` says the store can be read but not written (a read-only file or file
    /// system): a front-end that would also write (the shell) then opens it for reading.
    public static func isReadOnlyStore(_ error: any Error) -> Bool {
        if case ManagedStoreError.readOnlyStore = error { return true }
        if let error = error as? SQLiteError, error.resultCode == .readOnly { return true }
        return false
    }

    /// A stable word for a failure, for programs: a query's own kind (`unknown-currency`,
    /// `hole`, …), else its kind's (`usage`, `bad-data`, `no-input`, `io-error`,
    /// `try-again-later`, `interrupted`, `internal`).
    public static func code(of error: any Error) -> String {
        if let error = error as? QueryError { return error.code }
        if let error = error as? QuestionRefusal { return error.code }
        if let error = error as? ImportJobError { return code(of: error.underlying) }
        switch FailureKind(error) {
        case .usage: return "usage"
        case .dataError: return "bad-data"
        case .noInput: return "no-input"
        case .ioError: return "io-error"
        case .tryAgainLater: return "try-again-later"
        case .interrupted: return "interrupted"
        case .software: return "internal"
        }
    }

    /// The request itself is wrong (an unknown currency, a day out of range): EX_USAGE, 400.
    case usage
    /// The input is not good ECB data, or the store cannot answer as asked (a hole, a
    /// currency past its end): EX_DATAERR.
    case dataError
    /// The input (a file, a URL, the store) does not exist: EX_NOINPUT.
    case noInput
    /// The store or a file cannot be read or written: EX_IOERR.
    case ioError
    /// Worth retrying later (network trouble, another import running, a busy store):
    /// EX_TEMPFAIL, 503.
    case tryAgainLater
    /// Stopped by a signal (SIGINT, SIGTERM), after saying what was done.
    case interrupted(signal: Int32)
    /// A bug: EX_SOFTWARE, 500.
    case software

    /// The kind of `error`.
    public init(_ error: any Error) {
        switch error {
        case let error as ImportJobError: self.init(error.underlying)
        case let error as ImportStopped: self = .interrupted(signal: error.signal)
        case let error as FeedError: self = error.kind == .unreadable ? .ioError : .dataError
        case is FeedSourceError: self = .noInput
        case let error as FetchError:
            switch error.kind {
            case _ where error.isTransient: self = .tryAgainLater
            case .notXML, .tooLarge: self = .dataError
            case .temporaryFile: self = .ioError
            default: self = .noInput
            }
        case let error as ImportLockError:
            if case .busy = error { self = .tryAgainLater } else { self = .ioError }
        case let error as SQLiteError:
            switch error.resultCode {
            case .busy, .locked: self = .tryAgainLater
            default: self = .ioError
            }
        case ManagedStoreError.storeNotFound: self = .noInput
        case ManagedStoreError.storeChangedWhileReading: self = .tryAgainLater
        case ManagedStoreError.persistentHistoryTokenExpired, ManagedStoreError.foreignHistoryToken,
            ManagedStoreError.historyTokenAfterHistory:
            self = .dataError
        case is ManagedStoreError: self = .ioError
        case let error as QueryError: self = error.isUsageError ? .usage : .dataError
        case is QuestionRefusal: self = .usage
        case is NoStoreError: self = .noInput
        case is StoreAccessError, is SystemStoreError: self = .ioError
        case is CocoaError: self = .ioError
        case is BatchConversionError: self = .dataError
        default: self = .software
        }
    }
}
