import ECBRates
import EurofxrefFeed
import Foundation

extension PageContent {
    /// The converter: a `GET` form on `/` with `/api/convert`'s fields, and its answer as
    /// `ecbrates convert` prints it, with the rate, the publication used and why.
    var converterSection: String {
        let fallbacks = RateFallback.allCases.map { fallback -> (String, String) in
            switch fallback {
            case .previous: ("previous", "the one before (default)")
            case .next: ("next", "the one after")
            case .nearest: ("nearest", "the nearest")
            case .interpolate: ("interpolate", "interpolated")
            case .none: ("none", "none: refuse")
            }
        }
        let form = """
            <form method="get" action="/#converter" class="converter" data-section="converter">
            \(hiddenFields(HomePage.chartNames))<div class="field">\(HTMLText.labelledInput(id: "amount", name: "amount", label: "Amount", value: given["amount"], extra: [("inputmode", "decimal"), ("autocomplete", "off"), ("placeholder", "1234.56"), ("aria-describedby", "amount-help")]))<small id="amount-help">Digits, a point for decimals: 1234.56</small></div>
            <div class="field">\(HTMLText.labelledInput(id: "from", name: "from", label: "From currency", value: given["from"], extra: currencyAttributes("GBP")))</div>
            <div class="field">\(HTMLText.labelledInput(id: "to", name: "to", label: "To currency", value: given["to"], extra: currencyAttributes("JPY")))</div>
            <div class="field">\(HTMLText.labelledInput(id: "date", name: "date", label: "Day", value: given["date"], type: "date", extra: [("aria-describedby", "date-help")]))<small id="date-help">Empty: the newest publication</small></div>
            <div class="field">\(HTMLText.labelledSelect(id: "fallback", name: "fallback", label: "A day without rates", choices: fallbacks, selected: given["fallback"] ?? "previous"))</div>
            <div class="actions"><button type="submit">Convert</button></div>
            </form>
            """
        var result = ""
        switch convert {
        case .notAsked:
            result =
                "<p class=\"hint\">Give an amount and two currencies: the answer is exact, at the ECB's rate of the day, as <code>ecbrates convert</code> gives it.</p>"
        case .failed(let failure):
            result = Self.failureBlock(failure, id: "conversion-error")
        case .answered(let answered):
            let answer = answered.answer, rate = answer.rate
            let exact = NumberText.isPublished(rate)
            var facts: [(String, String)] = [
                ("Result", "\(answer.resultText) \(rate.currency)"),
                (
                    exact ? "Rate, as published" : "Rate, to 6 significant digits",
                    "1 \(rate.base) = \(NumberText.rate(rate)) \(rate.currency)"
                ),
            ]
            if let between = rate.interpolatedBetween, between.count == 2 {
                facts.append(("Interpolated between", "\(between[0]) and \(between[1])"))
            } else {
                facts.append(("Publication used", "\(rate.day)"))
            }
            if let asked = rate.asked { facts.append(("Day asked", "\(asked)")) }
            if let reason = rate.reason { facts.append(("Why", reason)) }
            // The ECB's own figures it was computed from, so that it can be checked by hand.
            for leg in rate.legs {
                let figures = leg.sources.map { "1 EUR = \(NumberText.exact($0.perEuro)) \(leg.currency) on \($0.day)" }
                let words =
                    leg.fixedRate == nil
                    ? figures.joined(separator: " and ")
                    : "1 EUR = \(NumberText.exact(leg.source.perEuro)) \(leg.currency), irrevocably from \(leg.source.day)"
                facts.append(("ECB rate of \(leg.currency)", words))
            }
            if let euro = answer.throughEuro {
                facts.append(("Through the euro", "\(NumberText.text(euro, places: 3)) EUR (Regulation (EC) 1103/97)"))
            }
            result =
                "<p class=\"result\"><output id=\"conversion-text\" for=\"amount from to date fallback\">\(HTMLText.escape(answer.text.trimmingCharacters(in: .newlines)))</output></p>\n"
                + Self.definitionList(facts, id: "conversion-facts") + Self.warningBlock(answered.warnings)
        }
        return """
            <section id="converter" aria-labelledby="converter-title" tabindex="-1">
            <h2 id="converter-title">Convert an amount</h2>
            \(form)
            <div id="conversion" aria-live="polite">\(result)</div>
            </section>

            """
    }

    /// A currency field's attributes: offered the store's currencies, three letters.
    func currencyAttributes(_ example: String) -> [(String, String?)] {
        [("list", "currency-codes"), ("autocomplete", "off"), ("placeholder", example), ("size", "6")]
    }

    /// `<dl>` of label and value pairs, escaped.
    static func definitionList(_ facts: [(String, String)], id: String) -> String {
        let items = facts.map { "<dt>\(HTMLText.escape($0.0))</dt><dd>\(HTMLText.escape($0.1))</dd>" }.joined()
        return "<dl id=\"\(id)\">\(items)</dl>\n"
    }

    /// The newest publication's rates, each currency with its name, and the stale-store warning.
    var ratesSection: String {
        var body = ""
        switch latest {
        case .notAsked: break
        case .failed(let failure): body = Self.failureBlock(failure, id: "rates-error")
        case .answered(let answered):
            let rates = answered.answer.rates
            let day = rates.first.map { "\($0.day)" } ?? ""
            let rows = rates.map { rate in
                "<tr><th scope=\"row\"><abbr title=\"\(HTMLText.escape(CurrencyNames.name(of: rate.currency) ?? rate.currency))\">\(HTMLText.escape(rate.currency))</abbr></th><td>\(HTMLText.escape(CurrencyNames.name(of: rate.currency) ?? ""))</td><td class=\"number\">\(HTMLText.escape(NumberText.rate(rate)))</td></tr>"
            }.joined(separator: "\n")
            body = """
                <p>The ECB's reference rates of <time datetime="\(day)" id="rates-day">\(day)</time>, the newest publication in this store: units of each currency per euro.</p>
                \(Self.warningBlock(answered.warnings))
                <div class="table-scroll" role="region" aria-labelledby="rates-title" tabindex="0">
                <table id="rates-table"><thead><tr><th scope="col">Code</th><th scope="col">Currency</th><th scope="col" class="number">Per euro</th></tr></thead>
                <tbody>
                \(rows)
                </tbody></table>
                </div>
                """
        }
        return """
            <section id="rates" aria-labelledby="rates-title">
            <h2 id="rates-title">The newest rates</h2>
            \(body)
            </section>

            """
    }
}
