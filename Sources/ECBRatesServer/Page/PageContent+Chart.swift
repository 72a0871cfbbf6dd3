import ECBRates
import EurofxrefFeed
import Foundation

extension PageContent {
    /// The chart: a `GET` form with `/api/series`' fields (`start` and `end` for its `from` and
    /// `to`), the series drawn by ``SVGChart`` (what `series --chart svg` draws), and the
    /// numbers behind it in a table, as `ecbrates series` prints them.
    var chartSection: String {
        let groups =
            [("", "every publication")] + SeriesGrouper.Period.allCases.map { ($0.rawValue, "by \($0.rawValue)") }
        // The default is no value (the question's own, the mean): so that a form that draws
        // every publication does not send a statistic, which needs a group.
        let statistics =
            [("", "mean (default)")]
            + SeriesGrouper.Statistic.allCases.filter { $0 != .mean }.map { ($0.rawValue, $0.rawValue) }
        let form = """
            <form method="get" action="/#chart" class="chart-form" data-section="chart">
            \(hiddenFields(HomePage.converterNames))<div class="field">\(HTMLText.labelledInput(id: "chart-currencies", name: "currencies", label: "Currencies", value: given["currencies"] ?? HomePage.defaultChart["currencies"], extra: [("autocomplete", "off"), ("placeholder", "CHF,USD"), ("aria-describedby", "currencies-help")]))<small id="currencies-help">Codes, comma-separated; several are drawn as indexes, 100 on the first day all have a figure</small></div>
            <div class="field">\(HTMLText.labelledInput(id: "chart-start", name: "start", label: "From day", value: given["start"], type: "date", extra: [("aria-describedby", "start-help")]))<small id="start-help">Empty: a year before the last day</small></div>
            <div class="field">\(HTMLText.labelledInput(id: "chart-end", name: "end", label: "To day", value: given["end"], type: "date", extra: [("aria-describedby", "end-help")]))<small id="end-help">Empty: the newest publication</small></div>
            <div class="field">\(HTMLText.labelledSelect(id: "chart-group", name: "group", label: "Points", choices: groups, selected: given["group"] ?? ""))</div>
            <div class="field">\(HTMLText.labelledSelect(id: "chart-statistic", name: "statistic", label: "Figure of a period", choices: statistics, selected: given["statistic"] ?? ""))</div>
            <div class="field checkbox"><input id="chart-partial" name="partial" type="checkbox" value="true"\(given["partial"] == nil ? "" : " checked")><label for="chart-partial">Draw what the store holds when the range lacks days</label></div>
            <div class="actions"><button type="submit">Draw</button></div>
            </form>
            """
        var body = ""
        switch chart {
        case .notAsked: break
        case .failed(let failure): body = Self.failureBlock(failure, id: "chart-error")
        case .answered(let answered):
            body = Self.warningBlock(answered.warnings) + "\n" + Self.chartFigure(answered.answer, range: chartRange)
        }
        return """
            <section id="chart" aria-labelledby="chart-title">
            <h2 id="chart-title">Rates over time</h2>
            \(form)
            <div id="chart-answer" aria-live="polite">\(body)</div>
            </section>

            """
    }

    /// The drawing and its table, or a line saying there is nothing to draw; `range` is the
    /// range asked (with its defaults), for the caption.
    static func chartFigure(_ table: SeriesTable, range: (first: CalendarDay, last: CalendarDay)?) -> String {
        guard !table.rows.isEmpty, !table.currencies.isEmpty else {
            return "<p class=\"hint\">No rates in that range.</p>"
        }
        let what =
            table.grouping.map {
                "one \($0.statistic.rawValue) per \($0.period.rawValue), each dated by the \($0.period.rawValue)'s first day"
            } ?? "every publication"
        let svg = SVGChart.render(table, style: .embedded(titleID: "chart-svg-title"))
        let counted = table.grouping != nil
        let header =
            "<th scope=\"col\">\(HTMLText.escape(table.dateColumn))</th>"
            + (counted ? "<th scope=\"col\" class=\"number\">days</th>" : "")
            + table.currencies.map { "<th scope=\"col\" class=\"number\">\(HTMLText.escape($0))</th>" }.joined()
        let rows = table.rows.map { row in
            let cells = row.rates.map { rate in
                "<td class=\"number\">\(rate.map { HTMLText.escape(table.cell($0, machine: false)) } ?? "-")</td>"
            }.joined()
            let days = counted ? "<td class=\"number\">\(row.days ?? 0)</td>" : ""
            return "<tr><th scope=\"row\">\(row.day)</th>\(days)\(cells)</tr>"
        }.joined(separator: "\n")
        let (first, last) = range ?? (table.rows.first!.day, table.rows.last!.day)
        return """
            <figure id="chart-figure">
            <div class="chart-scroll" role="region" aria-label="The chart (scrolls sideways on a narrow screen)" tabindex="0">\(svg)</div><figcaption>\(HTMLText.escape(table.currencies.joined(separator: ", "))) per \(HTMLText.escape(table.base == "EUR" ? "euro" : table.base)), \(first) to \(last), \(HTMLText.escape(what)): \(table.rows.count) point\(table.rows.count == 1 ? "" : "s"). The numbers are in the table below.</figcaption>
            </figure>
            <div class="table-scroll tall" role="region" aria-label="The numbers behind the chart" tabindex="0">
            <table id="chart-table"><caption>The numbers behind the chart (\(table.isDerived ? "derived figures to 6 significant digits" : "the published rates, exactly"))</caption>
            <thead><tr>\(header)</tr></thead>
            <tbody>
            \(rows)
            </tbody></table>
            </div>
            """
    }
}
