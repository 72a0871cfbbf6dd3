import EurofxrefFeed
import Foundation
import ManagedStore

/// Whether the store holds its whole history from where it should begin.
extension RateQueries {
    /// Where the store's history should begin: the earliest day an import was asked to start
    /// from (`--from`), when one was and it is after the ECB's first day; else the ECB's first
    /// day. `isAsked` says which.
    public func historyStart() throws -> (day: CalendarDay, isAsked: Bool) {
        var request = FetchRequest<ImportRun>()
        // The run log is written by contexts this one does not merge: take the stored values.
        request.shouldRefreshRefetchedObjects = true
        let asked = try context.fetch(request).compactMap(\.requestedFrom).min()
        if let asked, asked > TargetCalendar.firstPublicationDay { return (asked, true) }
        return (TargetCalendar.firstPublicationDay, false)
    }

    /// How much of its history the store holds at its start (see ``HistoryCoverage``).
    public func historyCoverage() throws -> HistoryCoverage {
        let (first, _) = try context.aggregate(FetchRequest<Eurofxrefhist>(), .minimum(\.date), .maximum(\.date))
        let (start, isAsked) = try historyStart()
        return HistoryCoverage(shouldBegin: start, isAsked: isAsked, begins: first)
    }
}
