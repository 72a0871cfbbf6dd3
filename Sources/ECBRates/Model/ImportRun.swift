import EurofxrefFeed
import Foundation
import ManagedStore

/// The record of one import: what it read, when, how it ended, what it changed.
public final class ImportRun: ManagedObject {
    /// The sources, as given (`eurofxref-hist.xml`, a URL, `-`), joined by spaces.
    @Attribute public var source: String
    /// When the run began.
    @Attribute public var startedAt: Date
    /// When it ended (nil while it runs, or when it was killed).
    @Attribute public var finishedAt: Date?
    /// ``Outcome`` as text.
    @Attribute public var outcomeText: String
    /// The process that ran it.
    @Attribute public var processID: Int64
    /// Days and rates read, and what became of the rates.
    @Attribute public var days: Int64
    @Attribute public var rates: Int64
    @Attribute public var inserted: Int64
    @Attribute public var corrected: Int64
    @Attribute public var unchanged: Int64
    /// The error that ended a failed run.
    @Attribute public var errorMessage: String?
    /// True for runs that record the rates they store and the corrections they make (model
    /// version 2 on); false for runs of an earlier release, carried over by the migration.
    @Attribute public var recordsChanges: Bool
    /// The first day the run was asked to import (`--from`); nil when it was not limited, and
    /// for runs before model version 3.
    @Attribute public var requestedFrom: CalendarDay?
    /// The rates this run stored first.
    @Relationship public var storedRates: Set<Eurofxrefhist>
    /// The corrections this run made.
    @Relationship public var corrections: Set<RateCorrection>

    /// How a run ended.
    public enum Outcome: String, Sendable {
        /// Still running (or killed before it could say otherwise).
        case running
        /// Read and stored everything.
        case succeeded
        /// Stopped by an error; the days saved before it stay.
        case failed
        /// Every URL answered "not modified": nothing to read.
        case notModified = "not modified"
        /// Found still `running` by a later import: its process had died.
        case interrupted
    }

    /// How the run ended.
    public var outcome: Outcome {
        get { Outcome(rawValue: outcomeText) ?? .failed }
        set { outcomeText = newValue.rawValue }
    }

    /// What an interrupted run's error says.
    static func interruptedMessage(processID: Int64) -> String {
        "the import was stopped before it finished (process \(processID) ended)"
    }
}
