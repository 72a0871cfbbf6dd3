import Foundation
import ManagedStore

/// The words a user reads for a failure: what failed, on which file, and what to do. The one
/// place errors become messages, beside ``FailureKind``, where they become kinds (exit codes,
/// HTTP statuses).
///
/// ```swift
/// FailureText.describe(error)   // "no store at /tmp/x.sqlite; run 'ecbrates import' first"
/// ```
public enum FailureText {
    /// The message for `error`, in ecbrates's terms.
    public static func describe(_ error: any Error) -> String {
        describe(error, door: .commandLine)
    }

    /// The message for `error`, naming fields and advice as `door` spells them.
    public static func describe(_ error: any Error, door: Door) -> String {
        switch error {
        case let error as QueryError:
            return error.message(for: door)
        case let error as QuestionRefusal:
            return error.message(for: door)
        case let error as ImportJobError:
            return describe(error.underlying, door: door)
        case let error as SQLiteError:
            return describe(error)
        case let error as ManagedStoreError:
            return describe(error)
        case let error as CocoaError:
            return describe(error)
        default:
            return "\(error)"
        }
    }

    /// Foundation's file errors in words: the file, and the system's reason (never the raw
    /// `Error Domain=NSCocoaErrorDomain Code=…` text).
    static func describe(_ error: CocoaError) -> String {
        let file = error.filePath ?? error.url?.path
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        let reason =
            underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil }
            ?? (error.isFileError ? "a file error (\(error.code.rawValue))" : "error \(error.code.rawValue)")
        return file.map { "cannot use \($0): \(reason)" } ?? reason
    }

    /// The stack's refusals, in ecbrates's terms (a user knows ecbrates stores, not ManagedStore).
    static func describe(_ error: ManagedStoreError) -> String {
        switch error {
        case .notAStore(let url, let reason):
            return "\(url.path) is not an ecbrates store: \(reason); it was left untouched"
        case .incompatibleModel(let url, _):
            return
                "\(url.path) is an SQLite store of another program or of another kind of ecbrates store; it was left untouched (\(error))"
        case .unsupportedStoreFormat(let url, let version, let supported):
            return
                "\(url.path) was made by a newer version of ecbrates (store format \(version); this version reads format \(supported)); it was left untouched"
        case .storeNotFound(let url):
            return "no store at \(url.path) yet; run 'ecbrates import' first"
        case .readOnlyStore(let url):
            return "the store \(url.path) is read-only: it can be queried, not written"
        default:
            return "\(error)"
        }
    }

    /// SQLite's failures, named by what they mean for the store (SQLite's own words follow in
    /// parentheses where they add something); the SQL that failed is left to the developers'
    /// description.
    static func describe(_ error: SQLiteError) -> String {
        let store = error.path.map { "the store \($0)" } ?? "the store"
        switch error.resultCode {
        case .full:
            return
                "the disk is full: cannot write \(store). What was saved before stays saved; free some space and run the command again"
        case .readOnly:
            return "\(store) is read-only (\(error.message)): it can be queried, not written"
        case .notADatabase:
            return "\(store) is not an ecbrates store: the file is not an SQLite database"
        case .corrupt:
            return "\(store) is damaged (\(error.message)); restore it from a backup, or import again into a new store"
        case .cannotOpen:
            return "cannot open \(store) (\(error.message))"
        case .ioError:
            return "cannot read or write \(store): \(error.resultCode)"
        case .busy, .locked:
            return "\(store) is locked by another process (\(error.message)); try again later"
        default:
            return "\(store): \(error.message)"
        }
    }
}
