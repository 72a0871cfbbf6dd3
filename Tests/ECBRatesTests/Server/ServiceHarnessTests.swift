import ECBRates
import ECBRatesServer
import Foundation
import TestSupport
import Testing

/// The service in process (``ServiceHarness``), without a socket: routing, parameters, caching
/// headers, CORS, methods, errors and gzip.
@Suite struct ServiceHarnessTests {
    static func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func everyQuestionHasARouteAndOthersAreNotFound() async throws {
        let harness = try await ServiceHarness()
        let targets = [
            "/api/rate?currencies=USD&date=2024-03-28", "/api/convert?amount=100&from=USD&to=JPY&date=2024-03-28",
            "/api/latest?currencies=USD", "/api/series?currencies=USD&from=2024-01-01&to=2024-01-31",
            "/api/stats?currency=USD&from=2024-01-01&to=2024-12-31", "/api/currencies", "/api/corrections",
            "/api/status",
        ]
        #expect(targets.count == Questions.all.count)
        for target in targets {
            let response = try harness.request(target)
            #expect(response.status == 200, "\(target): \(ServiceHarness.text(response))")
            #expect(response.header("Content-Type") == "application/json")
        }
        let missing = try harness.request("/api/exchange")
        #expect(missing.status == 404)
        #expect(try Self.json(missing)["code"] as? String == "not-found")
        #expect(
            ServiceHarness.text(missing).contains(
                "the API has rate, convert, latest, series, stats, currencies, corrections, status and openapi.json"))
        let document = try harness.request("/api/openapi.json")
        #expect(document.status == 200)
        let paths = try #require((try Self.json(document))["paths"] as? [String: Any])
        #expect(Set(paths.keys) == Set(Questions.all.map { "/api/\($0.name)" } + ["/api/openapi.json"]))
    }

    @Test func parametersAreReadAsTheQuestionDeclaresThem() async throws {
        let harness = try await ServiceHarness()
        let unknown = try harness.request("/api/rate?currencies=USD&symbol=GBP")
        #expect(unknown.status == 400)
        let refusal = try Self.json(unknown)
        #expect(refusal["message"] as? String == "unknown parameter symbol=GBP")
        #expect(refusal["code"] as? String == "bad-parameter")
        let twice = try harness.request("/api/rate?currencies=USD&currency=GBP")
        #expect(twice.status == 400)
        #expect(
            try Self.json(twice)["message"] as? String
                == "parameter currencies is given more than once (currencies=USD and currency=GBP); give it once")
        let bad = try harness.request("/api/rate?currencies=USD&date=2024-13-01")
        #expect(
            try Self.json(bad)["message"] as? String
                == "parameter date=2024-13-01 is invalid: expected a day that exists: a month is 01 to 12, not 13")
        let missing = try harness.request("/api/convert?amount=100&from=USD")
        #expect(
            try Self.json(missing)["message"] as? String == "parameter to is required (like to=JPY)")
        let conflict = try harness.request("/api/series?currencies=USD&from=2024-02-01&to=2024-01-01")
        #expect(try Self.json(conflict)["message"] as? String == "from (2024-02-01) is after to (2024-01-01)")
        // The alias and lower case reach the same question.
        let alias = try harness.request("/api/rate?currency=usd&date=2024-03-28")
        let plain = try harness.request("/api/rate?currencies=USD&date=2024-03-28")
        #expect(alias.status == 200 && alias.body == plain.body)
    }

    @Test func advicePointsToTheAPIsOwnSpelling() async throws {
        let harness = try await ServiceHarness(now: "2026-10-28T12:00:00Z")
        let range = try harness.request("/api/series?currencies=USD&from=2026-09-01&to=2026-10-27")
        #expect(range.status == 503)
        let message = try #require(try Self.json(range)["message"] as? String)
        #expect(message.hasSuffix("or pass partial=true to accept what is stored"), "\(message)")
        let partial = try harness.request("/api/series?currencies=USD&from=2026-09-01&to=2026-10-27&partial=true")
        #expect(partial.status == 200)
        let warnings = try #require(try Self.json(partial)["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["code"] as? String } == ["incomplete-answer"])
        let v2 = try harness.request("/v2/rates?from=2026-10-01&to=2026-10-27&quotes=USD")
        #expect(v2.status == 503)
        #expect(ServiceHarness.text(v2).contains("pass partial=true"), "\(ServiceHarness.text(v2))")
        let v2Partial = try harness.request("/v2/rates?from=2026-09-28&to=2026-10-27&quotes=USD&partial=true")
        #expect(v2Partial.status == 200, "\(ServiceHarness.text(v2Partial))")
        // A stale store's latest answer says so, as the command line's does.
        let latest = try harness.request("/api/latest?currencies=USD")
        #expect(ServiceHarness.text(latest).contains(#""warnings":[{"code":"stale-store""#))
        #expect(latest.header("Ecbrates-Warnings") == nil, "JSON says them inside")
        // CSV has no room for them: a header says their codes.
        let csv = try harness.request(
            "/api/series?currencies=USD&from=2026-09-01&to=2026-10-27&partial=true&format=csv")
        #expect(csv.status == 200, "\(ServiceHarness.text(csv))")
        #expect(csv.header("Ecbrates-Warnings") == "incomplete-answer", "\(csv.headers)")
    }

    /// Frankfurter's paths keep their names and shapes, and ask the same question values:
    /// the same rate, the same refusal in their own names (with Frankfurter's status, 422),
    /// and a stale store's warning in a header (their JSON has no room for it).
    @Test func frankfurterAsksTheSameQuestionsInItsOwnNames() async throws {
        let harness = try await ServiceHarness(now: "2026-10-28T12:00:00Z")
        let ours = try Self.json(try harness.request("/api/rate?currencies=USD&base=GBP&date=2024-03-29"))
        let v1 = try Self.json(try harness.request("/2024-03-29?symbols=USD&from=GBP"))
        let v2 = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try harness.request("/v2/rates?date=2024-03-29&quotes=USD&base=GBP").body))
                as? [[String: Any]])
        let rate = try #require(ours["rate"] as? NSNumber)
        #expect(ours["day"] as? String == "2024-03-28", "Good Friday answers with the Thursday before")
        #expect((v1["rates"] as? [String: Any])?["USD"] as? NSNumber == rate)
        #expect(v1["date"] as? String == "2024-03-28")
        #expect(v2.first { $0["quote"] as? String == "USD" }?["rate"] as? NSNumber == rate)
        for (target, words) in [
            ("/latest?symbols=U$D", "parameter symbols=U$D is invalid: expected currency codes like USD,JPY"),
            ("/v2/rates?quotes=U$D", "parameter quotes=U$D is invalid: expected currency codes like USD,JPY"),
            ("/api/latest?currencies=U$D", "parameter currencies=U$D is invalid: expected currency codes like USD,JPY"),
        ] {
            let refused = try harness.request(target)
            #expect(refused.status == (target.hasPrefix("/api/") ? 400 : 422), "\(target)")
            #expect(try Self.json(refused)["message"] as? String == words, "\(target)")
            #expect(try Self.json(refused)["code"] as? String == "bad-parameter", "\(target)")
        }
        for target in ["/latest?symbols=USD", "/v2/rates?quotes=USD", "/v2/rate/EUR/USD", "/2026-09-01..?symbols=USD"] {
            let answer = try harness.request(target)
            #expect(answer.status == 200, "\(target): \(ServiceHarness.text(answer))")
            #expect(answer.header("Ecbrates-Warnings") == "stale-store", "\(target): \(answer.headers)")
        }
        let past = try harness.request("/2024-03-29?symbols=USD")
        #expect(past.header("Ecbrates-Warnings") == nil, "a day in the past is not stale")
    }

    /// v1's `/currencies` lists what Frankfurter's lists: the currencies quoted in the 14 days
    /// up to the newest publication, and the euro (issue 35, 5). Bulgaria's lev, last quoted on
    /// 2025-12-31, is listed by a store whose newest day is 2026-01-09, not by one of 2026-01-23.
    @Test func v1CurrenciesListsTheLastFourteenDaysAsFrankfurterDoes() async throws {
        for (newest, listed) in [("2026-01-09", true), ("2026-01-23", false)] {
            let directory = TemporaryDirectory()
            let store = directory.file("rates.sqlite")
            let imported = try CommandRun.process([
                "import", FixturePaths.history.path, "--from", "2025-11-01", "--to", newest, "--store", store.path,
            ])
            #expect(imported.status == 0, "\(imported)")
            let harness = try await ServiceHarness(now: "\(newest)T17:00:00Z", store: store.path)
            let list = try Self.json(try harness.request("/currencies"))
            #expect((list["BGN"] != nil) == listed, "newest \(newest): \(list.keys.sorted())")
            #expect(list["EUR"] as? String == "Euro" && list["USD"] != nil)
        }
    }

    /// Frankfurter's answers where a pair or a range has nothing to ask (issue 35, 8): v1's
    /// `symbols` equal to the base is 422 "bad currency pair"; v2's `/rate/USD/USD` is the
    /// identity record (Frankfurter added it in July 2026); a range without its first day
    /// matches no route: 404.
    @Test func degenerateRequestsAnswerAsFrankfurterDoes() async throws {
        let harness = try await ServiceHarness()
        let pair = try harness.request("/2024-03-28?base=USD&symbols=USD")
        #expect(pair.status == 422)
        #expect(try Self.json(pair)["message"] as? String == "bad currency pair: symbols=USD is the base itself")
        let identity = try Self.json(try harness.request("/v2/rate/USD/USD?date=2024-03-29"))
        #expect(identity["rate"] as? NSNumber == 1 && identity["date"] as? String == "2024-03-28", "\(identity)")
        let open = try harness.request("/..2024-01-01")
        #expect(open.status == 404)
        #expect(try Self.json(open)["code"] as? String == "not-found")
        #expect(try Self.json(open)["message"] as? String == "not found: a range is /{start}..{end} or /{start}..")
    }

    @Test func validatorsCachingAndConditionalRequests() async throws {
        let harness = try await ServiceHarness()
        let first = try harness.request("/api/rate?currencies=USD&date=2024-03-28")
        let etag = try #require(first.header("ETag"))
        #expect(first.header("Last-Modified") != nil)
        #expect(
            first.header("Cache-Control")
                == "public, max-age=86400, stale-while-revalidate=604800, stale-if-error=2592000")
        let again = try harness.request("/api/rate?currencies=USD&date=2024-03-28", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        let status = try harness.request("/api/status")
        #expect(status.header("ETag") == nil, "status names the store's file and ages: not cached")
    }

    @Test func methodsCORSAndGzip() async throws {
        let harness = try await ServiceHarness(settings: RateService.Settings(corsOrigin: "*"))
        let post = try harness.request("/api/rate", method: "DELETE")
        #expect(post.status == 405 && post.header("Allow") == "GET, HEAD, OPTIONS")
        let options = try harness.request("/api/rate", method: "OPTIONS")
        #expect(options.status == 204 && options.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
        let cors = try harness.request("/api/currencies", headers: ["Origin": "https://example.org"])
        #expect(cors.header("Access-Control-Allow-Origin") == "*")
        let plain = try harness.request("/api/currencies")
        let gzipped = try harness.request("/api/currencies", headers: ["Accept-Encoding": "gzip"])
        #expect(gzipped.header("Content-Encoding") == "gzip" && gzipped.body.count < plain.body.count)
        #expect(gzipped.header("ETag") != plain.header("ETag"))
        let v1 = try harness.request("/2024-03-28?amount=abc")
        #expect(v1.status == 422, "Frankfurter answers a request it cannot read with 422")
    }
}
