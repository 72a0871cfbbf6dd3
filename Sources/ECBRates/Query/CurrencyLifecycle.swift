import EurofxrefFeed

/// When the ECB stopped quoting a currency, for good or for a while, and why: the currencies
/// the euro replaced, the redenominations, the suspended rouble and the Icelandic króna's gap.
///
/// The data says *that* a currency has no rate (the ECB published other currencies that day
/// and not it); this table says *why*, and covers the days the data cannot: a holiday just
/// after a currency's end, on which a fallback to its last day would otherwise answer.
public struct CurrencyLifecycle: Sendable, Equatable {
    /// The currency.
    public let currency: String
    /// The first day without a rate.
    public let from: CalendarDay
    /// The last day without a rate, for a gap that ended; nil for an end.
    public let through: CalendarDay?
    /// Why, in words: "the euro replaced the Croatian kuna on 2023-01-01".
    public let why: String

    /// Every end and gap of a currency the ECB has quoted since 1999.
    public static let known: [CurrencyLifecycle] = [
        .replacedByEuro("GRD", "Greek drachma", "2001-01-01"),
        .replacedByEuro("SIT", "Slovenian tolar", "2007-01-01"),
        .replacedByEuro("CYP", "Cyprus pound", "2008-01-01"),
        .replacedByEuro("MTL", "Maltese lira", "2008-01-01"),
        .replacedByEuro("SKK", "Slovak koruna", "2009-01-01"),
        .replacedByEuro("EEK", "Estonian kroon", "2011-01-01"),
        .replacedByEuro("LVL", "Latvian lats", "2014-01-01"),
        .replacedByEuro("LTL", "Lithuanian litas", "2015-01-01"),
        .replacedByEuro("HRK", "Croatian kuna", "2023-01-01"),
        .replacedByEuro("BGN", "Bulgarian lev", "2026-01-01"),
        CurrencyLifecycle(
            currency: "TRL", from: CalendarDay("2005-01-01")!, through: nil,
            why: "the new Turkish lira (TRY) replaced the Turkish lira (TRL) on 2005-01-01"),
        CurrencyLifecycle(
            currency: "ROL", from: CalendarDay("2005-07-01")!, through: nil,
            why: "the new Romanian leu (RON) replaced the Romanian leu (ROL) on 2005-07-01"),
        CurrencyLifecycle(
            currency: "RUB", from: CalendarDay("2022-03-02")!, through: nil,
            why: "the ECB suspended its rouble rate from 2022-03-02"),
        CurrencyLifecycle(
            currency: "ISK", from: CalendarDay("2008-12-10")!, through: CalendarDay("2018-01-31")!,
            why: "the ECB did not quote the Icelandic króna from 2008-12-10 to 2018-01-31"),
    ]

    private static func replacedByEuro(_ code: String, _ name: String, _ day: String) -> CurrencyLifecycle {
        CurrencyLifecycle(
            currency: code, from: CalendarDay(day)!, through: nil, why: "the euro replaced the \(name) on \(day)")
    }

    /// The end or gap of `currency` that `day` falls in, if any.
    public static func interruption(of currency: String, on day: CalendarDay) -> CurrencyLifecycle? {
        known.first { $0.currency == currency && $0.from <= day && $0.through.map { day <= $0 } ?? true }
    }

    /// Whether the currency was not quoted on any day from `start` to `end` (in either order):
    /// a fallback must not carry a rate across such a day.
    public static func interruption(
        of currency: String, between start: CalendarDay, and end: CalendarDay
    ) -> CurrencyLifecycle? {
        let (low, high) = (min(start, end), max(start, end))
        return known.first { $0.currency == currency && $0.from <= high && ($0.through.map { low <= $0 } ?? true) }
    }
}
