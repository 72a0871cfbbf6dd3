import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization

/// Whole days of rates, as one worker stores them in one transaction.
struct WorkItem: Sendable {
    /// The records, each day's together, in the order they were read.
    var records: [RateRecord] = []
    /// The days, in the order they were read.
    var days: [CalendarDay] = []

    /// The records with their days in ascending order (each day's records in the order read).
    ///
    /// The ECB's history runs newest first; inserted in that order, every row would go in at
    /// the front of the (date, currency) unique index, splitting its pages half full. Day by day
    /// in ascending order, each chunk's rows are appended to one run of pages: the store ends
    /// up 13.6 MB instead of 16.8, and the inserts are faster (`scripts/bench`).
    func recordsByDay() -> [RateRecord] {
        if days.count < 2 || zip(days, days.dropFirst()).allSatisfy({ $0 < $1 }) { return records }
        var runs: [(day: CalendarDay, range: Range<Int>)] = []
        runs.reserveCapacity(days.count)
        var start = 0
        for index in 1...records.count where index == records.count || records[index].day != records[start].day {
            runs.append((records[start].day, start..<index))
            start = index
        }
        runs.sort { $0.day < $1.day }
        var ordered: [RateRecord] = []
        ordered.reserveCapacity(records.count)
        for run in runs { ordered.append(contentsOf: records[run.range]) }
        return ordered
    }
}
