import EurofxrefFeed
import Foundation

/// What one source's import did.
public struct ImportReport: Sendable {
    /// The source, as given.
    public var source: String
    /// Days read (after the filters).
    public var days = 0
    /// Rates read (after the filters).
    public var rates = 0
    /// The earliest day read.
    public var firstDay: CalendarDay?
    /// The latest day read.
    public var lastDay: CalendarDay?
    /// Rates stored for the first time.
    public var inserted = 0
    /// Rates whose stored value differed, and was replaced by the published one.
    public var corrected = 0
    /// Rates already stored with the same value.
    public var unchanged = 0
    /// Each corrected rate, with its old and new value.
    public var corrections: [Correction] = []
    /// How long the import took, in seconds.
    public var seconds = 0.0
    /// True when a URL answered "not modified": nothing was read.
    public var notModified = false
    /// True for a dry run: nothing was stored.
    public var dryRun = false
    /// Why the import read another source than the one asked for, when it did.
    public var note: String?

    /// A report for `source`, with nothing read yet.
    public init(source: String) {
        self.source = source
    }

    /// True when the import changed (or, for a dry run, would change) the store.
    public var changesStore: Bool { inserted + corrected > 0 }

    /// The days stored, as a count and a range: `12 whole days (2026-07-03..2026-07-20)`, or
    /// `no day`.
    public var storedDays: String {
        guard days > 0, let first = firstDay else { return "no day" }
        let last = lastDay ?? first
        return "\(days) whole day\(days == 1 ? "" : "s") (\(first == last ? "\(first)" : "\(first)..\(last)"))"
    }
}

/// A stored rate the import replaced with the published one.
public struct Correction: Sendable, Hashable, CustomStringConvertible {
    /// The day of the rate.
    public let day: CalendarDay
    /// The currency code.
    public let currency: String
    /// The value the store held.
    public let old: Decimal
    /// The value published now, which replaced it.
    public let new: Decimal

    public var description: String { "\(currency) on \(day): \(old) → \(new)" }
}

/// How far an import has come.
public struct ImportProgress: Sendable {
    /// Days and rates stored so far.
    public let days: Int
    /// Rates stored so far.
    public let rates: Int
    /// Seconds since the import began.
    public let seconds: Double
}
