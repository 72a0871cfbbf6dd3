import EurofxrefFeed

/// How much of the ECB's history the store holds at its start: whether it begins where its
/// history should (the ECB's first day, 1999-01-04, or the first day an import was asked for
/// with `--from`), or later, with business days missing before its first day (an interrupted
/// history import keeps its newest days; a store fed only the 90-day file never had the rest).
public struct HistoryCoverage: Sendable, Equatable {
    /// Where the store's history should begin.
    public let shouldBegin: CalendarDay
    /// True when ``shouldBegin`` is a day an import was asked to start from (`--from`), not the
    /// ECB's first day.
    public let isAsked: Bool
    /// The store's first day (nil when it is empty).
    public let begins: CalendarDay?
    /// The business days from ``shouldBegin`` to the day before ``begins``: the ECB published
    /// rates on each, and the store has none of them.
    public let missingBusinessDays: Int

    /// The coverage of a store whose first day is `begins`, when it should begin on
    /// `shouldBegin`.
    public init(shouldBegin: CalendarDay, isAsked: Bool, begins: CalendarDay?) {
        self.shouldBegin = shouldBegin
        self.isAsked = isAsked
        self.begins = begins
        if let begins, begins > shouldBegin {
            missingBusinessDays =
                TargetCalendar.businessDays(after: shouldBegin.adding(days: -1), through: begins.adding(days: -1)).count
        } else {
            missingBusinessDays = 0
        }
    }

    /// True when no business day is missing before the store's first day (and when it is
    /// empty: that is said on its own).
    public var isComplete: Bool { missingBusinessDays == 0 }

    /// Where the history should begin, and why: `1999-01-04 (the ECB's first reference rates)`.
    public var shouldBeginText: String {
        isAsked ? "\(shouldBegin) (asked for with --from)" : "\(shouldBegin) (the ECB's first reference rates)"
    }

    /// `it begins on 2026-07-03, but should begin on 1999-01-04 (…); the rates of 6923 business
    /// days are missing before it; 'ecbrates import' fills them`; nil when complete.
    public var gapText: String? {
        guard let begins, !isComplete else { return nil }
        let count = missingBusinessDays
        return "it begins on \(begins), but should begin on \(shouldBeginText); "
            + "the rates of \(count) business day\(count == 1 ? " are" : "s are") missing before it; 'ecbrates import' fills them"
    }

    /// ``gapText`` as a sentence of its own: `the store's history is incomplete: it begins …`.
    public var incompleteText: String? { gapText.map { "the store's history is incomplete: " + $0 } }
}
