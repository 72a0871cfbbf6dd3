import Foundation

/// The last import run, as `status` shows it.
public struct ImportRunSummary: Sendable {
    /// What it imported (files or URLs, as given).
    public let source: String
    /// When it started.
    public let startedAt: Date
    /// When it ended (nil while running, or when it was killed).
    public let finishedAt: Date?
    /// `running`, `succeeded`, `failed`, `not modified` or `interrupted` (see ``ImportRun/Outcome``).
    public let outcome: String
    /// Rates read.
    public let rates: Int
    /// Rates stored for the first time.
    public let inserted: Int
    /// Stored rates replaced by a corrected value.
    public let corrected: Int
    /// Why it failed, or was interrupted.
    public let error: String?
    /// The process that ran it.
    public let processID: Int
}
