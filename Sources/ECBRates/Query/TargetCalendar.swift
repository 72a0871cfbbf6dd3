import EurofxrefFeed
import Foundation

/// The TARGET calendar the ECB publishes its reference rates on: every weekday except
/// 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December; the rates come out around
/// 16:00 CET (Frankfurt time).
///
/// The closing days were fewer at first, as the history shows: in 1999 only 1 January, 25 and
/// 31 December; Good Friday, Easter Monday, 1 May and 26 December from 2000; 31 December until 2001.
public enum TargetCalendar {
    /// Why no rates are published on `day`, or nil on a business day: "a Saturday",
    /// "Good Friday", "Christmas Day", …
    public static func closure(on day: CalendarDay) -> String? {
        switch day.weekday {
        case .saturday: return "a Saturday"
        case .sunday: return "a Sunday"
        default: break
        }
        let fullCalendar = day.year >= 2000
        switch (day.month, day.day) {
        case (1, 1): return "New Year's Day"
        case (5, 1) where fullCalendar: return "Labour Day"
        case (12, 25): return "Christmas Day"
        case (12, 26) where fullCalendar: return "St Stephen's Day"
        case (12, 31) where day.year <= 2001: return "New Year's Eve (a TARGET closing day until 2001)"
        default: break
        }
        guard fullCalendar else { return nil }
        let easter = easterSunday(in: day.year)
        if day == easter.adding(days: -2) { return "Good Friday" }
        if day == easter.adding(days: 1) { return "Easter Monday" }
        return nil
    }

    /// Whether rates are published on `day`.
    public static func isBusinessDay(_ day: CalendarDay) -> Bool { closure(on: day) == nil }

    /// The ECB's first reference rates: 4 January 1999.
    public static let firstPublicationDay = CalendarDay(year: 1999, month: 1, day: 4)!

    /// Why a file cannot hold rates for `day` when it is `today` in Frankfurt, or nil when it
    /// can: before the first reference rates, in the future, or a TARGET closing day. The
    /// importer and `validate` refuse such a day as an error in the file.
    public static func refusal(for day: CalendarDay, today: CalendarDay) -> String? {
        if day < firstPublicationDay {
            return "is before \(firstPublicationDay), the day of the ECB's first reference rates"
        }
        if day > today { return "is in the future (today is \(today))" }
        if let closure = closure(on: day) { return "is \(closure): the ECB publishes no rates then" }
        return nil
    }

    /// ``refusal(for:today:)`` as the reader takes it, for `today` (nil: the day it is now).
    public static func readerCheck(today: CalendarDay? = nil) -> @Sendable (CalendarDay) -> String? {
        let today = today ?? Self.today(at: Date())
        return { day in refusal(for: day, today: today) }
    }

    /// Easter Sunday of `year` (the anonymous Gregorian algorithm).
    public static func easterSunday(in year: Int) -> CalendarDay {
        let a = year % 19, b = year / 100, c = year % 100
        let d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return CalendarDay(year: year, month: month, day: day)!
    }

    /// Frankfurt's time zone (CET in winter, CEST in summer).
    static let frankfurt = TimeZone(identifier: "Europe/Berlin") ?? TimeZone(secondsFromGMT: 3600)!

    /// When the rates of `day` are due: 16:00 Frankfurt time.
    public static func publicationTime(of day: CalendarDay) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = frankfurt
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: 16)
        return calendar.date(from: components) ?? day.date
    }

    /// The calendar day it is at `now` in Frankfurt.
    public static func today(at now: Date) -> CalendarDay {
        CalendarDay(date: now.addingTimeInterval(Double(frankfurt.secondsFromGMT(for: now))))
    }

    /// The newest business day whose rates should be out at `now`.
    public static func latestDueDay(at now: Date) -> CalendarDay {
        var day = today(at: now)
        while !isBusinessDay(day) || publicationTime(of: day) > now {
            day = day.adding(days: -1)
        }
        return day
    }

    /// The business days after `start` up to and including `end`.
    public static func businessDays(after start: CalendarDay, through end: CalendarDay) -> [CalendarDay] {
        guard end > start else { return [] }
        return (1...end.days(since: start)).map { start.adding(days: $0) }.filter(isBusinessDay)
    }
}
