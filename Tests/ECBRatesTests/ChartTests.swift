import ECBRates
import EurofxrefFeed
import Foundation
import TestSupport
import Testing

@testable import ECBRatesCLI

/// Charts: value ticks at round numbers (1, 2 or 5 × 10ⁿ apart) that cover the data, date ticks
/// on calendar boundaries, and lines told apart without colour.
@Suite struct ChartTests {
    /// For seeded random ranges of every size: the ticks cover the range, are evenly spaced by a
    /// round step, and number between 2 and 8.
    @Test func valueTicksAreRoundAndCoverTheRange() {
        let seed = UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        for _ in 0..<2_000 {
            let magnitude = pow(10, Double.random(in: -5...5, using: &random))
            let low = Double.random(in: 0...10, using: &random) * magnitude
            let high = low + Double.random(in: 0.0001...5, using: &random) * magnitude
            let (ticks, decimals) = ChartTicks.values(low: low, high: high, count: 5)
            let context = "seed \(seed): \(low)…\(high) → \(ticks)"
            #expect(ticks.first! <= low && ticks.last! >= high, "\(context)")
            #expect((2...8).contains(ticks.count), "\(context)")
            let step = ticks[1] - ticks[0]
            let power = pow(10, log10(step).rounded(.down))
            let leading = (step / power * 1000).rounded() / 1000
            #expect([1, 2, 5, 10].contains(leading), "\(context): step \(step)")
            for (a, b) in zip(ticks, ticks.dropFirst()) { #expect(abs((b - a) - step) <= step * 1e-9, "\(context)") }
            // Each label shows the tick exactly (no more decimals than the step needs, none fewer).
            for tick in ticks {
                #expect(abs(Double(ChartTicks.label(tick, decimals: decimals))! - tick) <= step * 1e-6, "\(context)")
            }
        }
    }

    @Test func dateTicksFallOnYearsMonthsOrDays() {
        func days(_ from: String, _ to: String) -> [CalendarDay] {
            let first = CalendarDay(from)!, last = CalendarDay(to)!
            return (0...last.days(since: first)).map { first.adding(days: $0) }.filter {
                TargetCalendar.isBusinessDay($0)
            }
        }
        let years = ChartTicks.dates(days("1999-01-04", "2026-09-30"))
        #expect(years.map(\.label) == ["2000", "2005", "2010", "2015", "2020", "2025"])
        let months = ChartTicks.dates(days("2024-01-01", "2024-06-30"))
        #expect(months.map(\.label) == ["2024-02", "2024-03", "2024-04", "2024-05", "2024-06"])
        let short = ChartTicks.dates(days("2024-03-25", "2024-04-05"))
        #expect(short.allSatisfy { $0.label.count == 5 } && short.count <= 6, "\(short)")
    }

    /// The chart fills the terminal's width ($COLUMNS, as shells export it; else the window's
    /// size; else 80), and never passes it.
    @Test(arguments: [40, 60, 100, 160])
    func theChartTakesTheTerminalsWidth(columns: Int) async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let chart = await ecbrates(
            ["series", "USD,JPY", "--from", "2024-01-01", "--to", "2024-06-30", "--chart"], store: store,
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z", "NO_COLOR": "1", "COLUMNS": "\(columns)"])
        #expect(chart.status == 0, "\(chart)")
        // Every line below the title (which is as long as its words).
        let lines = chart.out.split(separator: "\n").dropFirst().map(\.count)
        #expect(lines.max() == columns, "\(columns) columns:\n\(chart.out)")
        // The axis line spans the plot: the value labels, " └", then the plot's width.
        let axis = chart.out.split(separator: "\n").first { $0.contains("└") }
        #expect(axis?.count == columns, "\(chart.out)")
        // A date label at the last tick is left out rather than run past the width.
        let monthly = await ecbrates(
            ["series", "USD", "--from", "2024-01-01", "--to", "2024-06-30", "--group", "month", "--chart"],
            store: store,
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z", "NO_COLOR": "1", "COLUMNS": "\(columns)"])
        let monthlyLines = monthly.out.split(separator: "\n").map(String.init).dropFirst()
        #expect(monthlyLines.allSatisfy { $0.count <= columns }, "\(monthly.out)")
    }

    @Test func severalLinesAreToldApartWithoutColour() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let chart = await ecbrates(
            ["series", "USD,JPY", "--from", "2024-01-01", "--to", "2024-06-30", "--chart"], store: store,
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z", "NO_COLOR": "1", "COLUMNS": "69"])
        #expect(chart.status == 0, "\(chart)")
        #expect(!chart.out.contains("\u{1B}["), "no colour")
        let plot = chart.out.split(separator: "\n").dropFirst().prefix(16).joined()
        #expect(plot.contains("1") && plot.contains("2"), "each line carries its number:\n\(chart.out)")
        #expect(chart.out.hasSuffix("  1 USD   2 JPY\n"))
        #expect(chart.out.contains("2024-02   2024-03   2024-04"), "\(chart.out)")
        let svg = await ecbrates(
            ["series", "USD,JPY", "--from", "2024-01-01", "--to", "2024-06-30", "--format", "svg"], store: store,
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z"])
        #expect(
            svg.out.components(separatedBy: "stroke-dasharray=\"6 3\"").count == 3,
            "JPY's line and its legend are dashed")
        #expect(svg.out.contains(">2024-03</text>") && svg.out.contains(">105</text>"), "\(svg.out.prefix(3_000))")
    }
}
