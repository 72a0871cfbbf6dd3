import EurofxrefFeed
import Foundation

/// The rates of the newest day.
public struct LatestRates: Sendable, Equatable {
    /// The newest stored day.
    public let day: CalendarDay
    /// Its rates, per euro, in the order asked for (or by code).
    public let rates: [(currency: String, rate: Decimal)]
    /// Currencies asked for that have no rate that day, with their last day.
    public let missing: [(currency: String, lastDay: CalendarDay?)]

    /// Equal when the day, the rates and the missing currencies are, in order.
    public static func == (lhs: LatestRates, rhs: LatestRates) -> Bool {
        lhs.day == rhs.day && lhs.rates.elementsEqual(rhs.rates, by: ==)
            && lhs.missing.elementsEqual(rhs.missing, by: ==)
    }
}
