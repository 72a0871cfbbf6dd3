import EurofxrefFeed
import Foundation

/// The numbers a chart draws: one line per currency, as rates or, for several currencies, as an
/// index (first day = 100) so that they share a scale.
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
        lines = table.currencies.indices.map { column in
            let values = table.rows.map { $0.rates[column].map { NSDecimalNumber(decimal: $0).doubleValue } }
            guard table.currencies.count > 1, let base = values.compactMap({ $0 }).first, base != 0 else {
                return values
            }
            return values.map { $0.map { $0 / base * 100 } }
        }
    }

    /// The lowest and highest value drawn.
    public var range: (low: Double, high: Double) {
        let all = lines.flatMap { $0.compactMap { $0 } }
        return (all.min() ?? 0, all.max() ?? 1)
    }

    /// What the chart shows ("USD per euro").
    public var title: String {
        isIndex
            ? currencies.joined(separator: ", ") + " per \(base), as an index (first day = 100)"
            : "\(currencies[0]) per \(base)"
    }

    /// The mark that tells a line apart without colour: 1, 2, 3, … (for several currencies).
    public static func marker(_ index: Int) -> Character { Character(String(index + 1 < 10 ? index + 1 : 0)) }
}
