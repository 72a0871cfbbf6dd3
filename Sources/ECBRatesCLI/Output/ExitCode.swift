import ECBRates

/// The exit codes of `ecbrates`, from sysexits: a failed run never exits 0.
package enum ExitCode {
    /// The command did what it was asked.
    package static let success: Int32 = 0
    /// `status --max-age-days`: the store is staler than allowed.
    package static let stale: Int32 = 1
    /// EX_USAGE: the command line is wrong.
    package static let usage: Int32 = 64
    /// EX_DATAERR: the input is not a good ECB file.
    package static let dataError: Int32 = 65
    /// EX_NOINPUT: the input does not exist or cannot be opened.
    package static let noInput: Int32 = 66
    /// EX_SOFTWARE: a bug.
    package static let software: Int32 = 70
    /// EX_IOERR: the store cannot be read or written.
    package static let ioError: Int32 = 74
    /// EX_TEMPFAIL: try again later (network trouble, another import running).
    package static let tryAgainLater: Int32 = 75

    /// The exit code an error means: the command line's own errors, then the kinds ECBRates
    /// sorts every other error into (``FailureKind``). The one place errors become exit codes.
    static func code(for error: any Error) -> Int32 {
        switch error {
        case is UsageError: return usage
        case is OutputError: return ioError
        default: return code(for: FailureKind(error))
        }
    }

    /// The exit code of a kind of failure (sysexits).
    static func code(for kind: FailureKind) -> Int32 {
        switch kind {
        case .usage: usage
        case .dataError: dataError
        case .noInput: noInput
        case .ioError: ioError
        case .tryAgainLater: tryAgainLater
        case .interrupted(let signal): 128 + signal
        case .software: software
        }
    }
}
