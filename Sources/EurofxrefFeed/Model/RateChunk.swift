/// Whole days of rates, as the reader hands them on: a day is never split across chunks.
public struct RateChunk: Sendable {
    /// The rates, day by day in the order of the file.
    public let records: [RateRecord]
    /// The days the chunk holds, in the order of the file.
    public let days: [CalendarDay]

    /// A chunk of `records` covering `days`.
    public init(records: [RateRecord], days: [CalendarDay]) {
        self.records = records
        self.days = days
    }
}
