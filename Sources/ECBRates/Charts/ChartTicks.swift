import EurofxrefFeed
import Foundation

/// Where a chart's axes get their ticks: round values (1, 2 or 5 × 10ⁿ apart) and calendar
/// boundaries (years, months or days, whichever gives a handful).
public enum ChartTicks {
    /// Round values from at most `low` to at least `high`, about `count` of them, and the
    /// number of decimals their labels need.
    public static func values(low: Double, high: Double, count: Int = 5) -> (ticks: [Double], decimals: Int) {
        let span = high > low ? high - low : max(abs(low) * 0.01, 1e-6)
        let step = niceStep(span / Double(max(1, count - 1)))
        let first = (low / step).rounded(.down) * step
        let last = (high / step).rounded(.up) * step
        let steps = max(1, Int(((last - first) / step).rounded()))
        let decimals = max(0, -Int(log10(step).rounded(.down)))
        return ((0...steps).map { first + Double($0) * step }, decimals)
    }

    /// The round step (1, 2 or 5 × 10ⁿ) nearest above `raw`.
    static func niceStep(_ raw: Double) -> Double {
        let power = pow(10, log10(raw).rounded(.down))
        let fraction = raw / power
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * power
    }

    /// A value's label with `decimals` decimals.
    public static func label(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", abs(value) < 1e-12 ? 0 : value)
    }

    /// Calendar boundaries among `days` (sorted): the first day of every k-th year, month or
    /// day, whichever unit gives at most `maximum` ticks; each with the index of the first day
    /// on or after it, and its label (`2024`, `2024-03`, `03-28`).
    public static func dates(_ days: [CalendarDay], maximum: Int = 6) -> [(index: Int, label: String)] {
        guard let first = days.first, let last = days.last else { return [] }
        let spanDays = last.days(since: first)
        let candidates: [(CalendarDay, String)]
        if spanDays > 3 * 365 {
            let years = Array((first.year + 1)...max(first.year + 1, last.year))
            let every = max(1, Int((Double(years.count) / Double(maximum)).rounded(.up)))
            candidates = years.filter { ($0 - years[0]) % every == 0 }.map {
                (CalendarDay(year: $0, month: 1, day: 1)!, "\($0)")
            }
        } else if spanDays > 60 {
            var months: [CalendarDay] = []
            var year = first.year, month = first.month + 1
            while true {
                if month > 12 { month = 1; year += 1 }
                let start = CalendarDay(year: year, month: month, day: 1)!
                if start > last { break }
                months.append(start)
                month += 1
            }
            let every = [1, 2, 3, 6, 12].first { (months.count + $0 - 1) / $0 <= maximum } ?? 12
            candidates = months.filter { ($0.month - 1) % every == 0 }.map { ($0, String($0.description.prefix(7))) }
        } else {
            let every = max(1, Int((Double(spanDays + 1) / Double(maximum)).rounded(.up)))
            candidates = stride(from: 0, through: spanDays, by: every).map { first.adding(days: $0) }.map {
                ($0, String($0.description.suffix(5)))
            }
        }
        return candidates.compactMap { day, label in
            guard day >= first, day <= last, let index = days.firstIndex(where: { $0 >= day }) else { return nil }
            return (index, label)
        }
    }
}
