import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// The exit codes of `ecbrates`, from sysexits: a failed run never exits 0.
public enum ExitCode {
    /// The command did what it was asked.
    public static let success: Int32 = 0
    /// `status --max-age-days`: the store is staler than allowed.
    public static let stale: Int32 = 1
    /// EX_USAGE: the command line is wrong.
    public static let usage: Int32 = 64
    /// EX_DATAERR: the input is not a good ECB file.
    public static let dataError: Int32 = 65
    /// EX_NOINPUT: the input does not exist or cannot be opened.
    public static let noInput: Int32 = 66
    /// EX_SOFTWARE: a bug.
    public static let software: Int32 = 70
    /// EX_IOERR: the store cannot be read or written.
    public static let ioError: Int32 = 74
    /// EX_TEMPFAIL: try again later (network trouble, another import running).
    public static let tryAgainLater: Int32 = 75

    /// The exit code an error means. The one place errors become exit codes.
    static func code(for error: any Error) -> Int32 {
        switch error {
        case let error as ImportJobError: return code(for: error.underlying)
        case let error as ImportStopped: return 128 + error.signal
        case is UsageError: return usage
        case let error as FeedError: return error.kind == .unreadable ? ioError : dataError
        case is FeedSourceError: return noInput
        case let error as FetchError:
            if error.isTransient { return tryAgainLater }
            if case .notXML = error.kind { return dataError }
            if case .tooLarge = error.kind { return dataError }
            if case .temporaryFile = error.kind { return ioError }
            return noInput
        case let error as ImportLockError:
            if case .busy = error { return tryAgainLater }
            return ioError
        case let error as SQLiteError: return error.isBusy ? tryAgainLater : ioError
        case ManagedStoreError.storeNotFound: return noInput
        case ManagedStoreError.storeChangedWhileReading: return tryAgainLater
        case ManagedStoreError.persistentHistoryTokenExpired, ManagedStoreError.foreignHistoryToken,
             ManagedStoreError.historyTokenAfterHistory: return dataError
        case is ManagedStoreError: return ioError
        case let error as QueryError: return error.isUsageError ? usage : dataError
        case is NoStoreError: return noInput
        case is CocoaError: return ioError
        case is OutputError: return ioError
        case is BatchConversionError: return dataError
        default: return software
        }
    }
}
