import ECBRates
import EurofxrefFeed
import Foundation

/// The home page's answers, read from one state of the store, and the page they make: the
/// HTML (every value escaped by ``HTMLText``) and its status (200, or the status `/api/` gives
/// the first question refused).
struct PageContent {
    typealias Outcome = HomePage.Outcome

    /// The query's values as given, to show in the forms again.
    let given: [String: String]
    /// A parameter no form has.
    let refusal: HomePage.Failure?
    let latest: Outcome<RatesAnswer>
    let currencies: Outcome<CurrencyList>
    let convert: Outcome<ConversionAnswer>
    let chart: Outcome<SeriesTable>
    /// The chart's range as asked, its defaults filled in (nil when the chart was refused).
    let chartRange: (first: CalendarDay, last: CalendarDay)?
    let storeStatus: Outcome<StoreStatus>
    /// The server's version.
    let version: String
    /// The API's documentation and the MCP tools (the same for every page of a server: made
    /// once, by ``HomePage``).
    let reference: String

    /// 200, or the status of the first refusal on the page (the unknown parameter, the
    /// converter's, the chart's).
    var httpStatus: Int {
        (refusal ?? convert.failure ?? chart.failure)?.status ?? 200
    }

    /// The whole page.
    var html: String {
        var day = ""
        if case .answered(let latest) = latest, let first = latest.answer.rates.first { day = " of \(first.day)" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>ecbrates: the euro reference rates\(HTMLText.escape(day))</title>
            <link rel="icon" href="\(PageAssets.icon.path)" type="image/svg+xml">
            <link rel="stylesheet" href="\(PageAssets.style.versionedPath)">
            <script src="\(PageAssets.script.versionedPath)" defer></script>
            </head>
            <body>
            <a class="skip" href="#converter">Skip to the converter</a>
            <header>
            <h1>ecbrates</h1>
            <p>The European Central Bank's euro foreign exchange reference rates, exact to the digit, from this server's own store. The same answers as the command line, <a href="#api">the HTTP API</a> and <a href="#mcp">MCP</a>.</p>
            <nav aria-label="Sections"><ul><li><a href="#converter">Convert</a></li><li><a href="#rates">Rates</a></li><li><a href="#chart">Chart</a></li><li><a href="#status">Status</a></li><li><a href="#api">API</a></li><li><a href="#mcp">MCP tools</a></li></ul></nav>
            </header>
            <main>
            \(refusalBanner)\(converterSection)\(ratesSection)\(chartSection)\(statusSection)\(reference)</main>
            <footer><p>ecbrates \(HTMLText.escape(version)). Rates: the European Central Bank's euro foreign exchange reference rates, published on TARGET business days around 16:00 CET. No data leaves this server: every asset is its own.</p></footer>
            \(currencyList)
            </body>
            </html>

            """
    }

    /// The parameter no form has, refused as `/api/` refuses it.
    var refusalBanner: String {
        guard let refusal else { return "" }
        return Self.failureBlock(refusal, id: "page-error") + "\n"
    }

    /// A refusal: its message and code, announced to assistive technology.
    static func failureBlock(_ failure: HomePage.Failure, id: String) -> String {
        HTMLText.element(
            "div", [("class", "error"), ("role", "alert"), ("id", id), ("data-code", failure.code)],
            "<p><strong>\(HTMLText.escape(failure.code))</strong> (HTTP \(failure.status)): <span class=\"message\">\(HTMLText.escape(failure.message))</span></p>"
        )
    }

    /// An answer's warnings (a stale store, missing days), each with its code.
    static func warningBlock(_ warnings: [AnswerWarning]) -> String {
        warnings.map { warning in
            HTMLText.element(
                "p", [("class", "warning"), ("role", "status"), ("data-code", warning.code)],
                "<strong>\(HTMLText.escape(warning.code))</strong>: \(HTMLText.escape(warning.message))")
        }.joined(separator: "\n")
    }

    /// Hidden inputs carrying the other form's given values, so that one form keeps the other's state.
    func hiddenFields(_ names: [FrankfurterParameters.Name]) -> String {
        names.compactMap { name in
            given[name.names[0]].map {
                "<input type=\"hidden\" name=\"\(name.names[0])\" value=\"\(HTMLText.escape($0))\">"
            }
        }.joined()
    }

    /// Every currency the store has quoted, and the euro, for the currency fields to offer.
    var currencyList: String {
        var options = [("EUR", "Euro")]
        if case .answered(let list) = currencies {
            options += list.answer.currencies.map { ($0.code, "\($0.name) (\($0.firstDay) to \($0.lastDay))") }
        }
        let items = options.map { code, name in
            HTMLText.element("option", [("value", code)], HTMLText.escape(name))
        }.joined()
        return "<datalist id=\"currency-codes\">\(items)</datalist>"
    }
}
