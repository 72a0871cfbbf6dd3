import EurofxrefFeed
import Foundation

/// A correction of a published rate, as `ecbrates corrections` lists it.
public struct CorrectionRecord: Sendable, Equatable {
    /// The rate's day.
    public let day: CalendarDay
    /// The rate's currency.
    public let currency: String
    /// The value stored before the correction.
    public let oldRate: Decimal
    /// The value the ECB published instead.
    public let newRate: Decimal
    /// When the correction counted: the end of the import run that made it (its start, if it
    /// did not finish).
    public let correctedAt: Date
    /// What that run read.
    public let source: String
}
