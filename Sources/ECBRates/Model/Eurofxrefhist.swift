import EurofxrefFeed
import Foundation
import ManagedStore

/// One published reference rate: on `date`, 1 EUR was worth `exchangeRate` units of
/// `currencySymbol`. Unique on (date, currencySymbol).
public final class Eurofxrefhist: ManagedObject {
    /// The publication day.
    @Attribute public var date: CalendarDay
    /// The ISO 4217 code (`USD`).
    @Attribute public var currencySymbol: String
    /// The rate exactly as published: `1.1790` and `1.179` are the same value.
    @Attribute public var exchangeRate: Decimal
    /// The import run that first stored the rate (nil for a rate stored by a release before
    /// model version 2, which did not record it).
    @Relationship public var importRun: ImportRun?
    /// The corrections made to the rate since it was first stored.
    @Relationship public var corrections: Set<RateCorrection>

    /// The publication day (the same as ``date``).
    public var day: CalendarDay { date }
}
