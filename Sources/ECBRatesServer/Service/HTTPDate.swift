import EurofxrefFeed
import Foundation

/// HTTP's dates (RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` as an IMF-fixdate, to the second (rounded down).
    static func text(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The moment an IMF-fixdate names; nil for any other text.
    static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", let day = Int(fields[1]),
            let month = months.firstIndex(of: String(fields[2])), let year = Int(fields[3])
        else { return nil }
        let clock = fields[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, let calendarDay = CalendarDay(year: year, month: month + 1, day: day)?.daysSince1970
        else {
            return nil
        }
        return Date(timeIntervalSince1970: Double(calendarDay * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]))
    }
}
