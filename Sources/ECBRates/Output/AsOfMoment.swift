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
        return time(text)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, RFC 3339's date-time, read by hand: its day in
    /// the proleptic Gregorian calendar of ISO 8601 (Foundation's parser turns Julian before
    /// 1583, and refuses offsets past ±18 hours, which RFC 3339 allows up to ±23:59).
    private static func time(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), let day = CalendarDay(String(text.prefix(10)))
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            var end = index + 1
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            guard end > index + 1, let digits = Double("0" + String(decoding: bytes[index..<end], as: UTF8.self))
            else { return nil }
            fraction = digits
            index = end
        }
        var offset = 0
        if index == bytes.count - 1 && bytes[index] == UInt8(ascii: "Z") {
            offset = 0
        } else if index == bytes.count - 6, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
            bytes[index + 3] == UInt8(ascii: ":"), let hours = number(index + 1..<index + 3),
            let minutes = number(index + 4..<index + 6), hours <= 23, minutes <= 59
        {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return nil
        }
        let seconds = Double(day.daysSince1970) * 86_400 + Double(hour * 3600 + minute * 60 + second - offset)
        return Date(timeIntervalSince1970: seconds + fraction)
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
