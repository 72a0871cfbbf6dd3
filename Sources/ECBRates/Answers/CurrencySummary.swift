import EurofxrefFeed
import Foundation

/// A currency the store holds, and when.
public struct CurrencySummary: Sendable, Equatable {
    /// The ISO 4217 code.
    public let code: String
    /// The first day the store has a rate for it.
    public let firstDay: CalendarDay
    /// The last day the store has a rate for it.
    public let lastDay: CalendarDay
    /// How many rates the store holds for it.
    public let rates: Int

    /// Its English name (ISO 4217's; retired currencies too), or the code when unknown.
    public var name: String { CurrencyNames.name(of: code) ?? code }
}
