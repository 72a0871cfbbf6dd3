import EurofxrefFeed

/// The corrections imports made to published rates, newest first, and the filter asked for.
public struct CorrectionList: Sendable, Equatable {
    /// The corrections.
    public let corrections: [CorrectionRecord]
    /// Only this currency's, when asked.
    public let currency: String?
    /// Only those of rates of this day or later, when asked.
    public let since: CalendarDay?

    /// `corrections`, found with the filter `currency` and `since`.
    public init(_ corrections: [CorrectionRecord], currency: String? = nil, since: CalendarDay? = nil) {
        self.corrections = corrections
        self.currency = currency
        self.since = since
    }
}
