import EurofxrefFeed
import Foundation

/// The numbers a chart draws: one line per currency, as rates or, for several currencies, as an
/// index (100 on the first day every one has a figure) so that they share a scale.
public struct ChartSeries: Sendable {
    /// The days (or periods) drawn, in order.
    public let days: [CalendarDay]
    /// Per currency, a value per day (nil where it has no rate).
    public let lines: [[Double?]]
    /// The currencies, a line each.
    public let currencies: [String]
    /// Whether the lines are indexes (several currencies) rather than rates.
    public let isIndex: Bool
    /// The currency quoted against, as a title names it ("euro").
    public let base: String

    /// The numbers of `table`.
    public init(_ table: SeriesTable) {
        days = table.rows.map(\.day)
        currencies = table.currencies
        base = table.base == "EUR" ? "euro" : table.base
        isIndex = table.currencies.count > 1
        let values = table.currencies.indices.map { column in
            table.rows.map { $0.rates[column].map { NSDecimalNumber(decimal: $0).doubleValue } }
        }
        // Several currencies share a scale as indexes of one day: the first on which every
        // one has a figure (each its own first figure when no day has them all).
        let common = table.rows.indices.first { row in values.allSatisfy { $0[row] != nil } }
        indexDay = isIndex ? common.map { table.rows[$0].day } : nil
        lines = values.map { line in
            guard table.currencies.count > 1,
                let first = common.flatMap({ line[$0] }) ?? line.compactMap({ $0 }).first, first != 0
            else { return line }
            return line.map { $0.map { $0 / first * 100 } }
        }
    }

    /// For an index: the day (or period) every line is 100 on; nil when each line starts at
    /// 100 on its own first figure (no day has them all).
    public let indexDay: CalendarDay?

    /// The lowest and highest value drawn.
    public var range: (low: Double, high: Double) {
        let all = lines.flatMap { $0.compactMap { $0 } }
        return (all.min() ?? 0, all.max() ?? 1)
    }

    /// What the chart shows ("USD per euro").
    public var title: String {
        isIndex
            ? (currencies.count > 4 ? "\(currencies.count) currencies" : currencies.joined(separator: ", "))
                + " per \(base), as an index "
                + (indexDay.map { "(\($0) = 100)" } ?? "(each line's first figure = 100)")
            : "\(currencies[0]) per \(base)"
    }

    /// The mark that tells a line apart without colour: 1, 2, 3, … (for several currencies).
    public static func marker(_ index: Int) -> Character { Character(String(index + 1 < 10 ? index + 1 : 0)) }
}
