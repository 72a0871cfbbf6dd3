import ECBRates
import Foundation

/// A line chart for the terminal, drawn with Braille dots (2 × 4 dots a character); with colour,
/// each currency's line has its own.
enum TerminalChart {
    static let colors = ["\u{1B}[34m", "\u{1B}[31m", "\u{1B}[32m", "\u{1B}[35m", "\u{1B}[33m", "\u{1B}[36m"]

    static func render(_ table: SeriesTable, width: Int = 64, height: Int = 16, color: Bool) -> String {
        let series = ChartSeries(table)
        guard !series.days.isEmpty else { return "(no data)\n" }
        let (low, high) = series.range
        let dotsWide = width * 2, dotsHigh = height * 4
        var bits = Array(repeating: Array(repeating: UInt32(0), count: width), count: height)
        var owner = Array(repeating: Array(repeating: 0, count: width), count: height)
        let count = series.days.count
        for (lineIndex, line) in series.lines.enumerated() {
            var previous: (x: Int, y: Int)?
            for (dayIndex, value) in line.enumerated() {
                guard let value else {
                    previous = nil
                    continue
                }
                let x = count == 1 ? 0 : dayIndex * (dotsWide - 1) / (count - 1)
                let y = high == low ? dotsHigh / 2 : Int(((high - value) / (high - low) * Double(dotsHigh - 1)).rounded())
                let from = previous ?? (x, y)
                let steps = max(abs(x - from.x), abs(y - from.y), 1)
                for step in 0...steps {
                    let px = from.x + (x - from.x) * step / steps, py = from.y + (y - from.y) * step / steps
                    let dot: UInt32 = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]][py % 4][px % 2]
                    bits[py / 4][px / 2] |= dot
                    owner[py / 4][px / 2] = lineIndex
                }
                previous = (x, y)
            }
        }
        let labels = [ChartSeries.label(high), ChartSeries.label((high + low) / 2), ChartSeries.label(low)]
        let labelWidth = labels.map(\.count).max() ?? 0
        var text = series.title + "\n"
        for row in 0..<height {
            let label = row == 0 ? labels[0] : row == height / 2 ? labels[1] : row == height - 1 ? labels[2] : ""
            text += String(repeating: " ", count: labelWidth - label.count) + label + " ┤"
            for column in 0..<width {
                guard bits[row][column] != 0 else {
                    text += " "
                    continue
                }
                let glyph = String(UnicodeScalar(0x2800 + bits[row][column])!)
                text += color ? colors[owner[row][column] % colors.count] + glyph + "\u{1B}[0m" : glyph
            }
            text += "\n"
        }
        let first = "\(series.days.first!)", last = "\(series.days.last!)"
        text += String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: width) + "\n"
        text += String(repeating: " ", count: labelWidth + 2) + first
            + String(repeating: " ", count: max(1, width - first.count - last.count)) + last + "\n"
        if series.currencies.count > 1 {
            text += "  " + series.currencies.enumerated().map { index, code in
                color ? colors[index % colors.count] + "━━ " + code + "\u{1B}[0m" : code
            }.joined(separator: "   ") + "\n"
        }
        return text
    }
}
