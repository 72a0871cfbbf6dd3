import Foundation

/// A day of the Gregorian calendar, without a time or a time zone: the day a set of reference
/// rates was published for.
///
/// ```swift
/// let day = CalendarDay("2024-03-29")!       // a Friday
/// day.adding(days: 1).weekday                // .saturday
/// day.date                                   // 2024-03-29 00:00 UTC
/// ```
public struct CalendarDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The year (1 to 9999).
    public let year: Int
    /// The month (1 to 12).
    public let month: Int
    /// The day of the month (1 to 31).
    public let day: Int

    /// The day `year`-`month`-`day`, or nil when that is not a calendar date.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= Self.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The first day a `CalendarDay` can be (0001-01-01), for open ranges.
    public static let earliest = CalendarDay(year: 1, month: 1, day: 1)!
    /// The last day a `CalendarDay` can be (9999-12-31), for open ranges.
    public static let latest = CalendarDay(year: 9999, month: 12, day: 31)!

    /// The day `YYYY-MM-DD` spells, or nil when the text is not exactly a calendar date in that form.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ CalendarDay(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// Parses `YYYY-MM-DD` from UTF-8 bytes.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day that contains `date` in UTC.
    public init(date: Date) {
        self.init(daysSince1970: Self.daysSince1970(of: date))
    }

    /// The days from 1970-01-01 to the day that contains `date` in UTC: `CalendarDay(date:)`'s
    /// `daysSince1970`, without the calendar arithmetic there and back.
    public static func daysSince1970(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The day `days` after 1970-01-01 (negative: before).
    public init(daysSince1970 days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPart = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPart + 2) / 5 + 1
        let month = monthPart < 10 ? monthPart + 3 : monthPart - 9
        self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        self.day = day
    }

    /// Days from 1970-01-01 to this day.
    public var daysSince1970: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// This day at 00:00 UTC.
    public var date: Date { Date(timeIntervalSince1970: Double(daysSince1970) * 86_400) }

    /// The day `days` later (earlier for a negative count).
    public func adding(days: Int) -> CalendarDay { CalendarDay(daysSince1970: daysSince1970 + days) }

    /// Days from `other` to this day.
    public func days(since other: CalendarDay) -> Int { daysSince1970 - other.daysSince1970 }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        Weekday(rawValue: ((daysSince1970 % 7) + 7 + 3) % 7 + 1)!
    }

    /// A day of the week, Monday first (ISO 8601).
    public enum Weekday: Int, Sendable, CaseIterable, CustomStringConvertible {
        case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

        /// True for Saturday and Sunday.
        public var isWeekend: Bool { self == .saturday || self == .sunday }

        public var description: String {
            ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue - 1]
        }
    }

    /// Whether `year` is a leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days of `month` (1 to 12) of `year`, in the Gregorian calendar.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let y = String(year), m = String(month), d = String(day)
        return String(repeating: "0", count: 4 - y.count) + y + "-" + (m.count == 1 ? "0" : "") + m + "-"
            + (d.count == 1 ? "0" : "") + d
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = CalendarDay(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a YYYY-MM-DD date"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
