import Foundation

/// One published reference rate: on `day`, 1 EUR was worth `rate` units of `currency`.
public struct RateRecord: Sendable, Hashable, CustomStringConvertible {
    /// The day the rate was published for.
    public let day: CalendarDay
    /// The ISO 4217 code, three upper-case letters (`USD`).
    public let currency: String
    /// The rate exactly as published (`1.1790` and `1.179` are the same value).
    public let rate: Decimal

    /// A record of `rate` for `currency` on `day`.
    public init(day: CalendarDay, currency: String, rate: Decimal) {
        self.day = day
        self.currency = currency
        self.rate = rate
    }

    public var description: String { "\(day) \(currency) \(rate)" }
}
