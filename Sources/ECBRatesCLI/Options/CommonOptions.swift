import ECBRates
import EurofxrefFeed
import Foundation

/// The options several commands share, each declared once.
enum CommonOptions {
    /// `--store <path>`: every command that opens a store takes it.
    static let store = OptionSpec<String>.text(
        "--store", value: "path",
        help:
            "The store (default: $ECBRATES_STORE, else $XDG_DATA_HOME/ecbrates/rates.sqlite, else the system-wide /var/lib/ecbrates/rates.sqlite when only it exists).",
        completion: .file)

    /// `--format <format>`, limited to `allowed` (the first is the default).
    static func format(_ allowed: [OutputFormat]) -> OptionSpec<OutputFormat> {
        let names = allowed.map(\.rawValue)
        let list =
            names.count == 2
            ? names.joined(separator: " or ") : names.dropLast().joined(separator: ", ") + " or " + names.last!
        return .choice("--format", value: "format", allowed: allowed, help: "\(list) (default: \(names[0])).")
    }

    /// `--date <day>` of a query.
    static let date = OptionSpec<CalendarDay>.day(
        "--date", help: "The day (YYYY-MM-DD; default: the newest stored day).")
    /// `--from <day>` of a range.
    static func from(_ help: String) -> OptionSpec<CalendarDay> { .day("--from", help: help) }
    /// `--to <day>` of a range.
    static let to = OptionSpec<CalendarDay>.day("--to", help: "The last day (default: the newest stored day).")
    /// `--base <currency>`.
    static let base = OptionSpec<String>.currency("--base", help: "Quote against this currency instead of the euro.")
    /// `--currencies <codes>`.
    static let currencies = OptionSpec<[String]>.currencies("--currencies", help: "Only these currencies (USD,JPY,…).")
    /// `--fallback <rule>`.
    static let fallback = OptionSpec<RateFallback>.choice(
        "--fallback", value: "rule",
        help:
            "On a day without a rate: none, previous (default), next, nearest or interpolate (within \(RateFallback.window) days)."
    )
    /// `--output <file>`.
    static let output = OptionSpec<String>.text(
        "--output", value: "file",
        help: "Write to this file (whole, or not at all) instead of standard output; - is standard output.",
        completion: .file)
    /// `--partial`: accept a range the store does not hold whole.
    static let partial = FlagSpec(
        "--partial",
        help: "Answer from what is stored when the range reaches business days the store lacks (they are listed).")
    /// `--as-of <time>`: answer from the store as it was then.
    static let asOf = OptionSpec<Date>(
        "--as-of", value: "time",
        help:
            "Answer as the store would have then: a day (YYYY-MM-DD, its end in UTC) or a time (2026-10-01T17:00:00Z).",
        expected: "a day as YYYY-MM-DD or a time as YYYY-MM-DDTHH:MM:SSZ (or with an offset, +02:00)"
    ) { AsOfMoment.parse($0) }
    /// `--quiet`: nothing on success.
    static let quiet = FlagSpec(
        "--quiet", help: "Print nothing on success (errors still go to standard error); for cron.")
}
