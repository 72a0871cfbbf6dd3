import EurofxrefFeed
import Foundation

/// An irrevocably fixed conversion rate of a currency the euro replaced: units of it per euro,
/// six significant figures, from the day it joined (Council Regulations (EC) 2866/98, 1478/2000
/// and their successors), and how its amounts are rounded.
///
/// Regulation (EC) 1103/97, articles 4 and 5: the rates are used as they are, neither rounded
/// nor truncated; an amount converts to euro by dividing by the rate and from euro by
/// multiplying (inverse rates are never used); an amount in one such currency converts into
/// another through the euro (triangulation), the euro amount rounded to no fewer than three
/// decimals (ecbrates uses three); the final amount is rounded to the nearest sub-unit, a half
/// rounded up.
public struct EuroConversionRate: Sendable, Equatable {
    /// The currency.
    public let currency: String
    /// Its name.
    public let name: String
    /// Units per euro, exactly as the regulation writes it (`340.750`).
    public let text: String
    /// The first day the rate applies (the day the currency's country adopted the euro).
    public let since: CalendarDay
    /// Decimal places of its amounts (its sub-unit; 0 where none was in use).
    public let places: Int

    /// Units per euro.
    public var perEuro: Decimal { Decimal(string: text)! }

    /// Every fixed rate, by the day it began.
    public static let all: [EuroConversionRate] = [
        .init("BEF", "Belgian franc", "40.3399", "1999-01-01", 0),
        .init("DEM", "German mark", "1.95583", "1999-01-01", 2),
        .init("ESP", "Spanish peseta", "166.386", "1999-01-01", 0),
        .init("FRF", "French franc", "6.55957", "1999-01-01", 2),
        .init("IEP", "Irish pound", "0.787564", "1999-01-01", 2),
        .init("ITL", "Italian lira", "1936.27", "1999-01-01", 0),
        .init("LUF", "Luxembourg franc", "40.3399", "1999-01-01", 0),
        .init("NLG", "Dutch guilder", "2.20371", "1999-01-01", 2),
        .init("ATS", "Austrian schilling", "13.7603", "1999-01-01", 2),
        .init("PTE", "Portuguese escudo", "200.482", "1999-01-01", 0),
        .init("FIM", "Finnish markka", "5.94573", "1999-01-01", 2),
        .init("GRD", "Greek drachma", "340.750", "2001-01-01", 0),
        .init("SIT", "Slovenian tolar", "239.640", "2007-01-01", 2),
        .init("CYP", "Cyprus pound", "0.585274", "2008-01-01", 2),
        .init("MTL", "Maltese lira", "0.429300", "2008-01-01", 2),
        .init("SKK", "Slovak koruna", "30.1260", "2009-01-01", 2),
        .init("EEK", "Estonian kroon", "15.6466", "2011-01-01", 2),
        .init("LVL", "Latvian lats", "0.702804", "2014-01-01", 2),
        .init("LTL", "Lithuanian litas", "3.45280", "2015-01-01", 2),
        .init("HRK", "Croatian kuna", "7.53450", "2023-01-01", 2),
        .init("BGN", "Bulgarian lev", "1.95583", "2026-01-01", 2),
    ]

    private init(_ currency: String, _ name: String, _ text: String, _ since: String, _ places: Int) {
        self.currency = currency
        self.name = name
        self.text = text
        self.since = CalendarDay(since)!
        self.places = places
    }

    /// The fixed rate of `currency` that applies on `day`, if any: from its first day on (before
    /// it, a currency the ECB quoted has its published rates).
    public static func fixed(_ currency: String, on day: CalendarDay) -> EuroConversionRate? {
        guard let rate = all.first(where: { $0.currency == currency }), day >= rate.since else { return nil }
        return rate
    }

    /// The fixed rate of `currency` on any day, if it has one.
    public static func of(_ currency: String) -> EuroConversionRate? {
        all.first { $0.currency == currency }
    }

    /// `fixed at 340.750 per euro since 2001-01-01`.
    public var explanation: String { "fixed at \(text) per euro since \(since)" }
}
