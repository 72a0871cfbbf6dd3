import ECBRates
import ECBRatesServer
import Foundation
import TestSupport
import Testing

/// `GET /` in process (``ServiceHarness``): a browser gets the page, a program the entry points;
/// the page's answers are the questions' (the converter's line is `ecbrates convert`'s, a
/// refusal is `/api/convert`'s message and code); values are escaped; assets, the
/// Content-Security-Policy and validators. The browser's view is `PageBrowserTests`.
@Suite struct HomePageTests {
    static let browser = ["Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]

    static func page(_ harness: ServiceHarness, _ target: String) throws -> (HTTPResponse, String) {
        let response = try harness.request(target, headers: browser)
        return (response, ServiceHarness.text(response))
    }

    /// The text of the element with `id` (its content up to the next `<`), entities decoded.
    static func text(of id: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let open = rest.firstIndex(of: ">") else { return nil }
        let content = rest[rest.index(after: open)...].prefix { $0 != "<" }
        return String(content).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func aBrowserGetsThePageAndAProgramTheEntryPoints() async throws {
        let harness = try await ServiceHarness()
        let (response, html) = try Self.page(harness, "/")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<time datetime=\"2026-09-30\" id=\"rates-day\">2026-09-30</time>"))
        #expect(html.contains("<td>United States Dollar</td>"), "each currency with its name")
        #expect(html.contains("<output id=\"conversion-text\"") == false, "nothing converted before it is asked")
        // Every question of the API is documented, and every MCP tool listed.
        for question in Questions.all {
            #expect(html.contains("<code>GET /api/\(question.name)</code>"), "\(question.name) in the API's docs")
            #expect(html.contains("<strong><code>\(question.name)</code></strong>"), "\(question.name) among MCP's")
        }
        for accept in [nil, "application/json", "*/*", "application/json, text/html"] {
            let program = try harness.request("/", headers: accept.map { ["Accept": $0] } ?? [:])
            #expect(
                program.status == 200 && program.header("Content-Type") == "application/json", "\(accept ?? "none")")
            let index = try #require(try JSONSerialization.jsonObject(with: Data(program.body)) as? [String: Any])
            #expect((index["api"] as? [String: String])?["convert"] == "/api/convert")
            #expect(index["openapi"] as? String == "/api/openapi.json")
        }
        #expect(try harness.request("/", method: "HEAD", headers: Self.browser).status == 200)
        #expect(try harness.request("/", method: "POST", headers: Self.browser).status == 405)
    }

    @Test func theConverterAnswersAsTheCommandLineDoes() async throws {
        let harness = try await ServiceHarness()
        let cases: [(query: String, arguments: [String])] = [
            ("amount=1234.56&from=GBP&to=JPY&date=2024-03-29", ["1234.56", "GBP", "JPY", "--date", "2024-03-29"]),
            (
                "amount=100&from=DEM&to=USD&date=2001-06-02&fallback=next",
                ["100", "DEM", "USD", "--date", "2001-06-02", "--fallback", "next"]
            ),
            (
                "amount=-3.10&from=CYP&to=EUR&date=2007-12-31&fallback=interpolate",
                ["-3.10", "CYP", "EUR", "--date", "2007-12-31", "--fallback", "interpolate"]
            ),
            ("amount=1&from=USD&to=JPY", ["1", "USD", "JPY"]),
        ]
        for (query, arguments) in cases {
            let (response, html) = try Self.page(harness, "/?\(query)")
            let cli = try CommandRun.process(
                ["convert"] + arguments + ["--store", harness.store.url.path],
                environment: ["ECBRATES_NOW": "2026-10-01T12:00:00Z"])
            #expect(cli.status == 0, "\(cli)")
            #expect(response.status == 200, "\(query)")
            #expect(Self.text(of: "conversion-text", in: html) == cli.out.trimmingCharacters(in: .newlines), "\(query)")
        }
    }

    @Test func aRefusedFieldIsRefusedAsTheAPIRefusesIt() async throws {
        let harness = try await ServiceHarness()
        for query in [
            "amount=1&from=XYZ&to=USD", "amount=1,234.56&from=GBP&to=JPY", "amount=1&from=USD",
            "amount=1&from=US&to=JPY",
            "amount=1&from=USD&to=JPY&date=1998-05-01", "amount=1&from=USD&to=JPY&date=2024-03-30&fallback=none",
            "amount=1&from=USD&to=JPY&fallback=sideways",
        ] {
            let (response, html) = try Self.page(harness, "/?\(query)")
            let api = try harness.request("/api/convert?\(query)")
            let refusal = try #require(try JSONSerialization.jsonObject(with: Data(api.body)) as? [String: Any])
            #expect(api.status != 200, "\(query)")
            #expect(response.status == api.status, "\(query)")
            #expect(
                html.contains("id=\"conversion-error\" data-code=\"\(refusal["code"] as? String ?? "")\""), "\(query)")
            let message = try #require(html.range(of: "<span class=\"message\">")).upperBound
            let shown = html[message...].prefix { $0 != "<" }
            #expect(
                String(shown).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                    .replacingOccurrences(of: "&amp;", with: "&") == refusal["message"] as? String, "\(query)")
            #expect(response.header("Cache-Control") == "no-store", "a refusal is not kept")
        }
        // A parameter no form has is refused, naming it; an empty field is a field not given.
        let (unknown, html) = try Self.page(harness, "/?amount=1&from=USD&to=JPY&symbols=USD")
        #expect(unknown.status == 400)
        #expect(html.contains("unknown parameter symbols=USD"))
        let (empty, _) = try Self.page(harness, "/?amount=1&from=USD&to=JPY&date=&currencies=&start=&end=")
        #expect(empty.status == 200)
    }

    @Test func valuesOnThePageAreEscaped() async throws {
        let harness = try await ServiceHarness()
        let hostile = "<script>alert(1)</script>\"'&"
        let encoded = try #require(hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let (response, html) = try Self.page(harness, "/?amount=1&from=\(encoded)&to=USD&currencies=\(encoded)")
        #expect(response.status == 400)
        #expect(!html.contains("<script>alert"), "markup from the query is never markup on the page")
        #expect(html.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;\""))
        #expect(html.contains("parameter from=&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp; is invalid"))
        #expect(html.components(separatedBy: "<script").count == 2, "only our own script")
    }

    @Test func thePageAndItsAssetsCarryPolicyAndValidators() async throws {
        let harness = try await ServiceHarness()
        let (response, html) = try Self.page(harness, "/")
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
        #expect(!policy.contains("unsafe-inline"))
        #expect(html.range(of: #"\sstyle="|\son[a-z]+="|<script>"#, options: .regularExpression) == nil)
        let etag = try #require(response.header("ETag"))
        #expect(response.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
        let again = try harness.request("/", headers: Self.browser.merging(["If-None-Match": etag]) { $1 })
        #expect(again.status == 304)
        let assets = html.matches(of: /(?:href|src)="(\/assets\/[^"]+)"/).map { String($0.1) }
        #expect(assets.count == 3, "\(assets)")
        for asset in assets {
            let answer = try harness.request(asset)
            #expect(answer.status == 200, "\(asset)")
            #expect(answer.header("ETag") != nil && answer.header("X-Content-Type-Options") == "nosniff")
            let revalidated = try harness.request(asset, headers: ["If-None-Match": answer.header("ETag")!])
            #expect(revalidated.status == 304)
        }
        #expect(try harness.request("/assets/ecbrates.css?x=1").status == 400)
        #expect(try harness.request("/assets/missing.css").status == 404)
    }

    @Test func aStaleStoreIsSaidOnThePage() async throws {
        let harness = try await ServiceHarness(now: "2026-11-27T12:00:00Z")
        let (_, html) = try Self.page(harness, "/")
        #expect(
            html.contains(
                "<p class=\"warning\" role=\"status\" data-code=\"stale-store\"><strong>stale-store</strong>: the store&#39;s newest day is 2026-09-30"
            ))
        #expect(html.contains("<dt>freshness</dt><dd>out of date: "))
    }

    @Test func theChartIsTheSeriesAnswerDrawnAndTabled() async throws {
        let harness = try await ServiceHarness()
        let (response, html) = try Self.page(harness, "/?currencies=CHF&start=2022-01-01&end=2022-12-31&group=month")
        #expect(response.status == 200)
        let api = try harness.request("/api/series?currencies=CHF&from=2022-01-01&to=2022-12-31&group=month")
        let series = try #require(try JSONSerialization.jsonObject(with: Data(api.body)) as? [String: Any])
        let rows = try #require(series["rows"] as? [[String: Any]])
        #expect(rows.count == 12)
        let cells = html.matches(
            of:
                /<tr><th scope="row">(\d{4}-\d\d-\d\d)<\/th><td class="number">(\d+)<\/td><td class="number">([\d.]+)<\/td><\/tr>/
        )
        #expect(cells.map { String($0.1) } == rows.map { $0["date"] as! String })
        #expect(html.contains("<path data-currency=\"CHF\" d=\"M"), "drawn by SVGChart, embedded")
        #expect(html.contains("aria-labelledby=\"chart-svg-title\""))
        let (refused, refusal) = try Self.page(harness, "/?currencies=CHF&start=2022-12-31&end=2022-01-01")
        #expect(refused.status == 422)  // each value well-formed, together unanswerable: conflicting-parameters
        #expect(refusal.contains("start (2022-12-31) is after end (2022-01-01)"), "the form's own names")
    }

    /// What a new user's review found: the facts of an interpolation and the ECB's own rates
    /// behind an answer; the chart's default form, its caption, one point, many currencies,
    /// an index of lines that start on different days.
    @Test func theConvertersFactsNameWhatTheAnswerIsMadeOf() async throws {
        let harness = try await ServiceHarness()
        let (_, interpolated) = try Self.page(
            harness, "/?amount=100&from=USD&to=EUR&date=2024-03-30&fallback=interpolate")
        #expect(interpolated.contains("<dt>Interpolated between</dt><dd>2024-03-28 and 2024-04-02</dd>"))
        #expect(!interpolated.contains("<dt>Publication used</dt>"), "no publication of a Saturday")
        #expect(
            interpolated.contains(
                "<dt>ECB rate of USD</dt><dd>1 EUR = 1.0811 USD on 2024-03-28 and 1 EUR = 1.0749 USD on 2024-04-02</dd>"
            ))
        let (_, cross) = try Self.page(harness, "/?amount=1234.56&from=GBP&to=JPY&date=2024-03-29")
        #expect(cross.contains("<dt>Rate, to 6 significant digits</dt><dd>1 GBP = 191.147 JPY</dd>"))
        #expect(cross.contains("<dt>ECB rate of JPY</dt><dd>1 EUR = 163.45 JPY on 2024-03-28</dd>"))
        #expect(cross.contains("<dt>ECB rate of GBP</dt><dd>1 EUR = 0.8551 GBP on 2024-03-28</dd>"))
        let (_, legacy) = try Self.page(harness, "/?amount=100&from=DEM&to=EUR&date=2001-06-01")
        #expect(legacy.contains("<dt>ECB rate of DEM</dt><dd>1 EUR = 1.95583 DEM, irrevocably from 1999-01-01</dd>"))
    }

    @Test func theChartsFormDrawsEveryPublicationAndSaysWhatItDrew() async throws {
        let harness = try await ServiceHarness()
        let (empty, page) = try Self.page(harness, "/")
        #expect(empty.status == 200)
        #expect(page.contains("<option value=\"\" selected>mean (default)</option>"), "no statistic sent by default")
        // What the form sends when "every publication" is chosen: empty group and statistic.
        let (daily, html) = try Self.page(harness, "/?currencies=CHF&start=2022-01-01&end=2022-12-31&group=&statistic=")
        #expect(daily.status == 200)
        let api = try harness.request("/api/series?currencies=CHF&from=2022-01-01&to=2022-12-31")
        let rows = try #require(
            (try JSONSerialization.jsonObject(with: Data(api.body)) as? [String: Any])?["rows"] as? [Any])
        #expect(html.contains("CHF per euro, 2022-01-01 to 2022-12-31, every publication: \(rows.count) points."))
        let (_, monthly) = try Self.page(harness, "/?currencies=CHF&start=2022-01-01&end=2022-12-31&group=month")
        #expect(
            monthly.contains("2022-01-01 to 2022-12-31, one mean per month, each dated by the month&#39;s first day"))
        let (_, one) = try Self.page(harness, "/?currencies=USD&start=2026-09-28&end=2026-10-20&group=week")
        #expect(one.contains("<circle cx="), "a figure alone is drawn as a dot")
        let many = ["CHF", "USD", "GBP", "JPY", "CYP", "SEK", "NOK", "DKK", "AUD", "CAD", "HKD", "SGD"]
        let (_, crowded) = try Self.page(
            harness, "/?currencies=\(many.joined(separator: ","))&start=2007-01-01&end=2008-12-31&group=quarter")
        let svg = crowded
        let height = try #require(svg.firstMatch(of: /viewBox="0 0 800 (\d+)"/).map { Double($0.1)! })
        for code in many {
            let legend = try #require(
                svg.firstMatch(of: try Regex("<text x=\"[\\d.]+\" y=\"([\\d.]+)\">\(code)</text>")))
            #expect(Double(legend.output[1].substring!)! < height, "\(code)'s legend is inside the picture")
        }
        let styles = svg.matches(
            of:
                /<path data-currency="[A-Z]{3}" d="[^"]*" fill="none" stroke="(#[0-9a-f]{6})" stroke-width="1.5"( stroke-dasharray="[^"]*")?/
        )
        .map { "\($0.1)\($0.2 ?? "")" }
        #expect(styles.count == 12 && Set(styles).count == 12, "twelve lines, each its own colour and dashes")
        let (_, late) = try Self.page(harness, "/?currencies=BRL,USD&start=2007-01-01&end=2008-12-31&group=quarter")
        #expect(late.contains("BRL, USD per euro, as an index (2008-01-01 = 100)"), "one day is 100 for every line")
    }

    /// The answers every page shares (the newest rates, the status) are made once per state of
    /// the store: another page reuses them, and an import that lands is on the next page.
    @Test func theSharedAnswersFollowTheStore() async throws {
        let harness = try await ServiceHarness()
        let (_, before) = try Self.page(harness, "/?amount=1&from=USD&to=JPY")
        let (_, again) = try Self.page(harness, "/?amount=2&from=USD&to=JPY")
        let status = { (html: String) in html.firstMatch(of: /<dl id="status-facts">.*?<\/dl>/)?.0 }
        #expect(status(before) != nil && status(before) == status(again))
        let run = try CommandRun.process(
            [
                "import", FixturePaths.fixtures.appendingPathComponent("eurofxref-daily.xml").path, "--store",
                harness.store.url.path,
            ], environment: ["ECBRATES_NOW": "2026-10-01T12:00:00Z"])
        #expect(run.status == 0, "\(run)")
        let (_, after) = try Self.page(harness, "/?amount=3&from=USD&to=JPY")
        #expect(status(after) != status(before), "the import is in the status of the next page")
        #expect(status(after).map { $0.contains("eurofxref-daily.xml") } == true)
    }
}
