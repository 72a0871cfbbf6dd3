import ECBRates
import Foundation

/// A line chart as an SVG document, written by hand: axes with dates and values, a line per
/// currency, and a legend.
enum SVGChart {
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"]

    static func render(_ table: SeriesTable, width: Double = 800, height: Double = 420) -> String {
        let series = ChartSeries(table)
        let left = 70.0, right = 20.0, top = 40.0, bottom = 60.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let (low, high) = series.range
        let span = high == low ? 1 : high - low
        let count = max(series.days.count, 1)
        func x(_ index: Int) -> Double { left + (count == 1 ? plotWidth / 2 : Double(index) / Double(count - 1) * plotWidth) }
        func y(_ value: Double) -> Double { top + (high - value) / span * plotHeight }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(height))" viewBox="0 0 \#(Int(width)) \#(Int(height))" font-family="sans-serif" font-size="12">"# + "\n"
        svg += #"<rect width="100%" height="100%" fill="white"/>"# + "\n"
        svg += #"<text x="\#(number(left))" y="24" font-size="15">\#(escape(series.title))</text>"# + "\n"
        // Axes, with five value ticks and up to six date ticks.
        svg += #"<line x1="\#(number(left))" y1="\#(number(top))" x2="\#(number(left))" y2="\#(number(top + plotHeight))" stroke="black"/>"# + "\n"
        svg += #"<line x1="\#(number(left))" y1="\#(number(top + plotHeight))" x2="\#(number(left + plotWidth))" y2="\#(number(top + plotHeight))" stroke="black"/>"# + "\n"
        for tick in 0...4 {
            let value = low + span * Double(tick) / 4
            let ty = y(value)
            svg += #"<line x1="\#(number(left - 5))" y1="\#(number(ty))" x2="\#(number(left + plotWidth))" y2="\#(number(ty))" stroke="rgb(221,221,221)"/>"# + "\n"
            svg += #"<text x="\#(number(left - 8))" y="\#(number(ty + 4))" text-anchor="end">\#(ChartSeries.label(value))</text>"# + "\n"
        }
        let dateTicks = Set((0...5).map { count == 1 ? 0 : $0 * (count - 1) / 5 })
        for index in dateTicks.sorted() where index < series.days.count {
            let tx = x(index)
            svg += #"<line x1="\#(number(tx))" y1="\#(number(top + plotHeight))" x2="\#(number(tx))" y2="\#(number(top + plotHeight + 5))" stroke="black"/>"# + "\n"
            let anchor = index == 0 ? "start" : index == count - 1 ? "end" : "middle"
            svg += #"<text x="\#(number(tx))" y="\#(number(top + plotHeight + 20))" text-anchor="\#(anchor)">\#(series.days[index])</text>"# + "\n"
        }
        // One line per currency; a gap where it has no rate.
        for (lineIndex, line) in series.lines.enumerated() {
            var path = ""
            var pen = false
            for (index, value) in line.enumerated() {
                guard let value else {
                    pen = false
                    continue
                }
                path += (pen ? "L" : "M") + number(x(index)) + " " + number(y(value)) + " "
                pen = true
            }
            svg += #"<path d="\#(path.trimmingCharacters(in: .whitespaces))" fill="none" stroke="\#(palette[lineIndex % palette.count])" stroke-width="1.5"/>"# + "\n"
        }
        // The legend.
        for (index, code) in series.currencies.enumerated() {
            let lx = left + Double(index) * 90, ly = height - 18
            svg += #"<line x1="\#(number(lx))" y1="\#(number(ly - 4))" x2="\#(number(lx + 24))" y2="\#(number(ly - 4))" stroke="\#(palette[index % palette.count])" stroke-width="3"/>"# + "\n"
            svg += #"<text x="\#(number(lx + 30))" y="\#(number(ly))">\#(escape(code))</text>"# + "\n"
        }
        svg += "</svg>\n"
        return svg
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
