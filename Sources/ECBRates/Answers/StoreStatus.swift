import EurofxrefFeed
import Foundation

/// What the store holds, how fresh it is, and how the last import ended.
public struct StoreStatus: Sendable {
    /// The first stored day (nil for an empty store).
    public let firstDay: CalendarDay?
    /// The newest stored day (nil for an empty store).
    public let lastDay: CalendarDay?
    /// How many rates the store holds.
    public let rates: Int
    /// How many days it holds rates for.
    public let days: Int
    /// How many currencies it holds rates of.
    public let currencies: Int
    /// The newest business day whose rates should be out now.
    public let dueDay: CalendarDay
    /// Business days after `lastDay` up to `dueDay`: rates the store lacks.
    public let missingBusinessDays: [CalendarDay]
    /// Business days between `firstDay` and `lastDay` without any rate: holes an import left
    /// (for example a 90-day file imported into a store that ended before it began).
    public let holes: [CalendarDay]
    /// Whether the store begins where its history should, or lacks business days before its
    /// first day.
    public let history: HistoryCoverage
    /// Calendar days from `lastDay` to `dueDay` (0 when up to date).
    public let ageDays: Int
    /// The newest import run, if any.
    public let lastRun: ImportRunSummary?
    /// The store's file (set by whoever opened it: queries know the context, not the path).
    public var store = ""
    /// Why that store (see ``StoreLocation``): nil when whoever opened it did not say.
    public var storeLocation: StoreLocation?

    /// True when the store has the rates of every business day that should be out.
    public var isUpToDate: Bool { lastDay != nil && missingBusinessDays.isEmpty && holes.isEmpty }
}
