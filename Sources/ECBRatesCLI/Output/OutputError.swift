import Foundation

/// A result that could not be written: the path (or standard output) and the system's reason.
struct OutputError: Error, Sendable, CustomStringConvertible {
    /// The file, or nil for standard output.
    let path: String?
    /// The system's words for what went wrong ("No space left on device").
    let reason: String

    init(path: String?, errno code: Int32) {
        self.path = path
        reason = String(cString: strerror(code))
    }

    var description: String {
        "cannot write \(path ?? "to standard output"): \(reason)" + (path == nil ? "" : "; nothing was written to it")
    }
}
