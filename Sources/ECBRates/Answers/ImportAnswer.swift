/// What an import run did: a report per source read whole, and, when a source stopped it (a
/// bad file, a signal), what that source stored before it stopped and why.
public struct ImportAnswer: Sendable {
    /// The sources imported whole, in order.
    public let reports: [ImportReport]
    /// What the source that failed (or was interrupted) stored before it stopped.
    public let stopped: ImportReport?
    /// Why it stopped: the error's message.
    public let error: String?
    /// The signal that interrupted it (`SIGINT`), when one did.
    public let interruptedBy: String?

    /// The answer of a run that read every source whole.
    public init(reports: [ImportReport]) {
        self.init(reports: reports, stopped: nil, error: nil, interruptedBy: nil)
    }

    /// The answer of a run that `stopped` on a source, with the error's message and the signal.
    public init(reports: [ImportReport], stopped: ImportReport?, error: String?, interruptedBy: String?) {
        self.reports = reports
        self.stopped = stopped
        self.error = error
        self.interruptedBy = interruptedBy
    }
}
