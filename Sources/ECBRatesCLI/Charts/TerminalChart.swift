import ECBRates
import Foundation

/// A line chart for the terminal, drawn with Braille dots (2 × 4 dots a character), on round
/// value ticks and calendar date ticks. With several currencies, each line carries its number
/// every few columns (1, 2, …, named in the legend), so that the lines are told apart without
/// colour; with colour, each has its own too.
enum TerminalChart {
    static let colors = ["\u{1B}[34m", "\u{1B}[31m", "\u{1B}[32m", "\u{1B}[35m", "\u{1B}[33m", "\u{1B}[36m"]
    /// Columns between a line's number marks.
    static let markEvery = 12
    /// The narrowest plot drawn, in characters (a narrower terminal wraps it).
    static let minimumWidth = 20

    /// The width to draw in: `$COLUMNS` when set (as shells export it), else the terminal's
    /// (standard output's window size), else 80.
    static func columns(environment: [String: String], outputIsTerminal: Bool) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if outputIsTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return 80
    }

    /// The chart of `table`, `columns` characters wide in all (the terminal's width: see
    /// ``columns(environment:)``), its plot 16 rows high.
    static func render(_ table: SeriesTable, columns: Int = 80, height: Int = 16, color: Bool) -> String {
        let series = ChartSeries(table)
        guard !series.days.isEmpty else { return "(no data)\n" }
        let (ticks, decimals) = ChartTicks.values(low: series.range.low, high: series.range.high, count: 4)
        let low = ticks.first!, high = ticks.last!
        // The plot takes what the value labels and the axis ("12.5 ┤") leave of the line.
        let labelWidth = ticks.map { ChartTicks.label($0, decimals: decimals).count }.max() ?? 0
        let width = max(minimumWidth, columns - labelWidth - 2)
        let dotsWide = width * 2, dotsHigh = height * 4
        var bits = Array(repeating: Array(repeating: UInt32(0), count: width), count: height)
        var owner = Array(repeating: Array(repeating: 0, count: width), count: height)
        var marks: [[Character?]] = Array(repeating: Array(repeating: nil, count: width), count: height)
        let several = series.currencies.count > 1
        let count = series.days.count
        for (lineIndex, line) in series.lines.enumerated() {
            var previous: (x: Int, y: Int)?
            var nextMark = lineIndex * 3 % markEvery
            for (dayIndex, value) in line.enumerated() {
                guard let value else {
                    previous = nil
                    continue
                }
                let x = count == 1 ? 0 : dayIndex * (dotsWide - 1) / (count - 1)
                let y =
                    high == low ? dotsHigh / 2 : Int(((high - value) / (high - low) * Double(dotsHigh - 1)).rounded())
                let from = previous ?? (x, y)
                let steps = max(abs(x - from.x), abs(y - from.y), 1)
                for step in 0...steps {
                    let px = from.x + (x - from.x) * step / steps, py = from.y + (y - from.y) * step / steps
                    let dot: UInt32 = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]][py % 4][px % 2]
                    bits[py / 4][px / 2] |= dot
                    owner[py / 4][px / 2] = lineIndex
                }
                if several && x / 2 >= nextMark {
                    marks[y / 4][x / 2] = ChartSeries.marker(lineIndex)
                    owner[y / 4][x / 2] = lineIndex
                    nextMark = x / 2 + markEvery
                }
                previous = (x, y)
            }
        }
        // Value labels on the rows nearest the round ticks.
        var rowLabels: [Int: String] = [:]
        for tick in ticks {
            let row = high == low ? height / 2 : Int(((high - tick) / (high - low) * Double(height - 1)).rounded())
            rowLabels[row] = ChartTicks.label(tick, decimals: decimals)
        }
        var text = series.title + "\n"
        for row in 0..<height {
            let label = rowLabels[row] ?? ""
            text +=
                String(repeating: " ", count: labelWidth - label.count) + label + (rowLabels[row] == nil ? " │" : " ┤")
            for column in 0..<width {
                let glyph: String
                if let mark = marks[row][column] {
                    glyph = String(mark)
                } else if bits[row][column] != 0 {
                    glyph = String(UnicodeScalar(0x2800 + bits[row][column])!)
                } else {
                    text += " "
                    continue
                }
                text += color ? colors[owner[row][column] % colors.count] + glyph + "\u{1B}[0m" : glyph
            }
            text += "\n"
        }
        // The date axis: a tick under each calendar boundary, its label below where it fits.
        var axis = Array(repeating: Character("─"), count: width)
        var labels = Array(repeating: Character(" "), count: width + 12)
        var free = 0
        for (index, label) in ChartTicks.dates(series.days) {
            let column = count == 1 ? 0 : index * (width - 1) / (count - 1)
            axis[column] = "┬"
            guard column >= free, column + label.count <= width else { continue }
            for (offset, character) in label.enumerated() { labels[column + offset] = character }
            free = column + label.count + 1
        }
        text += String(repeating: " ", count: labelWidth) + " └" + String(axis) + "\n"
        text +=
            String(repeating: " ", count: labelWidth + 2)
            + String(String(labels).reversed().drop { $0 == " " }.reversed()) + "\n"
        if several {
            text +=
                "  "
                + series.currencies.enumerated().map { index, code in
                    let entry = "\(ChartSeries.marker(index)) \(code)"
                    return color ? colors[index % colors.count] + entry + "\u{1B}[0m" : entry
                }.joined(separator: "   ") + "\n"
        }
        return text
    }
}
