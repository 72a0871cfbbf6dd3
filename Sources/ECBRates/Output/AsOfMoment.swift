import EurofxrefFeed
import Foundation

/// The moment an answer is given as of (`--as-of`, `as_of`): read from text, and written.
public enum AsOfMoment {
    /// A day (`2026-10-01`: its last second, 23:59:59 UTC: what the store knew by its end) or an ISO
    /// 8601 time with a zone (`2026-10-01T17:00:00Z`, `2026-10-01T19:00:00+02:00`, fractions of
    /// a second allowed); nil for anything else.
    public static func parse(_ text: String) -> Date? {
        if let day = CalendarDay(text) {
            return day.adding(days: 1).date.addingTimeInterval(-1)
        }
        guard text.count >= 20, text.dropFirst(10).first == "T" else { return nil }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// The moment `moment` stands for when asked at `now`: itself, except the last second of
    /// today (`--as-of` today, as a day), which has not come yet but means "now": what the store
    /// holds at this moment. Any other moment after `now` is left as it is (and refused).
    public static func resolved(_ moment: Date, now: Date) -> Date {
        guard moment > now else { return moment }
        let today = CalendarDay(date: now)
        let endOfToday = today.adding(days: 1).date.addingTimeInterval(-1)
        return moment == endOfToday ? now : moment
    }

    /// The moment as answers give it, to the millisecond when it has one.
    public static func text(_ moment: Date) -> String {
        let whole = moment.timeIntervalSince1970.rounded(.down) == moment.timeIntervalSince1970
        if whole { return moment.formatted(.iso8601) }
        // The formatter truncates: a time parsed from `…13.484Z` is 13.48399… in binary, so it
        // is nudged to its nearest millisecond's inside first (a microsecond is far below a
        // millisecond, and far above a double's precision here).
        let milliseconds = (moment.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: milliseconds / 1000 + 0.000_001).formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
