import Foundation

/// A line chart as an SVG document, written by hand: axes with round value ticks and calendar
/// date ticks, a line per currency (each with its own colour and its own dash pattern, so that
/// they are told apart in black and white too), and a legend. `series --chart svg` writes it as
/// a document; the server's page embeds it in HTML (``Style/embedded``).
public enum SVGChart {
    /// A standalone document (black on white) or a drawing inside a page (in the page's
    /// colour, on its background, each line naming its currency for scripts and tests).
    public enum Style: Sendable {
        /// A document of its own: black on a white background (`series --chart svg`).
        case document
        /// Inside an HTML page: `currentColor` on the page's background, labelled for
        /// assistive technology by `titleID`, each line's `data-currency` naming its currency.
        case embedded(titleID: String)
    }

    /// Six colours of 3:1 contrast or more on white and on a dark page (#0d1117), as WCAG asks
    /// of graphics.
    static let palette = ["#1f77b4", "#d62728", "#2a8a2a", "#9467bd", "#c45a00", "#0e8a96"]
    static let dashes = ["", "6 3", "2 3", "10 3 2 3", "1 2", "12 4"]

    /// The chart of `table` in `style`, `width` × `height` user units (its `viewBox`).
    public static func render(
        _ table: SeriesTable, width: Double = 800, height: Double = 420, style: Style = .document
    ) -> String {
        var ink = "black", grid = #"stroke="rgb(221,221,221)""#, opening = "", background = true
        var titleID: String?
        if case .embedded(let id) = style {
            (ink, grid, background, titleID) = (
                "currentColor", #"stroke="currentColor" stroke-opacity="0.2""#, false, id
            )
            opening = #" fill="currentColor" role="img" aria-labelledby="\#(escape(id))""#
        }
        let series = ChartSeries(table)
        let left = 70.0, right = 20.0, top = 40.0, bottom = 60.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let (ticks, decimals) = ChartTicks.values(low: series.range.low, high: series.range.high)
        let low = ticks.first!, high = ticks.last!
        let span = high == low ? 1 : high - low
        let count = max(series.days.count, 1)
        func x(_ index: Int) -> Double {
            left + (count == 1 ? plotWidth / 2 : Double(index) / Double(count - 1) * plotWidth)
        }
        func y(_ value: Double) -> Double { top + (high - value) / span * plotHeight }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        // The legend: as many rows of 90 units as its entries need, below the plot.
        let perRow = max(1, Int((width - left) / 90))
        let legendRows = max(1, (series.currencies.count + perRow - 1) / perRow)
        let fullHeight = height + Double(legendRows - 1) * 18
        var svg =
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(fullHeight))" viewBox="0 0 \#(Int(width)) \#(Int(fullHeight))" font-family="sans-serif" font-size="12"\#(opening)>"#
            + "\n"
        if background { svg += #"<rect width="100%" height="100%" fill="white"/>"# + "\n" }
        let id = titleID.map { #" id="\#(escape($0))""# } ?? ""
        svg += #"<text x="\#(number(left))" y="24" font-size="15"\#(id)>\#(escape(series.title))</text>"# + "\n"
        // Axes, with round value ticks and calendar date ticks.
        svg +=
            #"<line x1="\#(number(left))" y1="\#(number(top))" x2="\#(number(left))" y2="\#(number(top + plotHeight))" stroke="\#(ink)"/>"#
            + "\n"
        svg +=
            #"<line x1="\#(number(left))" y1="\#(number(top + plotHeight))" x2="\#(number(left + plotWidth))" y2="\#(number(top + plotHeight))" stroke="\#(ink)"/>"#
            + "\n"
        for value in ticks {
            let ty = y(value)
            svg +=
                #"<line x1="\#(number(left - 5))" y1="\#(number(ty))" x2="\#(number(left + plotWidth))" y2="\#(number(ty))" \#(grid)/>"#
                + "\n"
            svg +=
                #"<text x="\#(number(left - 8))" y="\#(number(ty + 4))" text-anchor="end">\#(ChartTicks.label(value, decimals: decimals))</text>"#
                + "\n"
        }
        for (index, label) in ChartTicks.dates(series.days, maximum: 8) {
            let tx = x(index)
            svg +=
                #"<line x1="\#(number(tx))" y1="\#(number(top + plotHeight))" x2="\#(number(tx))" y2="\#(number(top + plotHeight + 5))" stroke="\#(ink)"/>"#
                + "\n"
            // A label at the right end ends there, rather than being cut at the picture's edge.
            let anchor = tx > left + plotWidth - 30 ? "end" : "middle"
            svg +=
                #"<text x="\#(number(tx))" y="\#(number(top + plotHeight + 20))" text-anchor="\#(anchor)">\#(label)</text>"#
                + "\n"
        }
        // One line per currency; a gap where it has no rate, and a dot for a figure alone
        // (no line reaches it).
        for (lineIndex, line) in series.lines.enumerated() {
            var path = ""
            var dots = ""
            var pen = false
            for (index, value) in line.enumerated() {
                guard let value else {
                    pen = false
                    continue
                }
                path += (pen ? "L" : "M") + number(x(index)) + " " + number(y(value)) + " "
                let alone = !pen && (index + 1 == line.count || line[index + 1] == nil)
                if alone {
                    dots +=
                        #"<circle cx="\#(number(x(index)))" cy="\#(number(y(value)))" r="3" fill="\#(color(lineIndex))"/>"#
                        + "\n"
                }
                pen = true
            }
            let name = titleID == nil ? "" : #" data-currency="\#(escape(series.currencies[lineIndex]))""#
            svg +=
                #"<path\#(name) d="\#(path.trimmingCharacters(in: .whitespaces))" fill="none" stroke="\#(color(lineIndex))" stroke-width="1.5"\#(dash(lineIndex))/>"#
                + "\n" + dots
        }
        // The legend.
        for (index, code) in series.currencies.enumerated() {
            let lx = left + Double(index % perRow) * 90, ly = height - 18 + Double(index / perRow) * 18
            svg +=
                #"<line x1="\#(number(lx))" y1="\#(number(ly - 4))" x2="\#(number(lx + 24))" y2="\#(number(ly - 4))" stroke="\#(color(index))" stroke-width="3"\#(dash(index))/>"#
                + "\n"
            svg += #"<text x="\#(number(lx + 30))" y="\#(number(ly))">\#(escape(code))</text>"# + "\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// The colour of line `index`.
    static func color(_ index: Int) -> String { palette[index % palette.count] }

    /// The dash pattern of line `index`, as an attribute (none for the first: solid). With the
    /// colour, it tells 36 lines apart: the seventh line has the first one's colour and the
    /// second one's dashes.
    static func dash(_ index: Int) -> String {
        let pattern = dashes[(index + index / palette.count) % dashes.count]
        return pattern.isEmpty ? "" : #" stroke-dasharray="\#(pattern)""#
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
