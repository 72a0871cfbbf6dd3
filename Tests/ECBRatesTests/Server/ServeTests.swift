import EurofxrefFeed
import Foundation
import TestSupport
import Testing

/// `ecbrates serve` over real loopback sockets: Frankfurter's v1 and v2 APIs against an independent
/// oracle, our own API against the command line's output, HTTP's caching, methods and CORS,
/// abuse, imports by another process, and a clean stop.
@Suite(.serialized) struct ServeTests {
    @Test func theV1AndV2AnswersAgreeWithAnIndependentOracleOnRandomDaysBasesAndAmounts() async throws {
        let served = try await ServedStore()
        let seed = ProcessInfo.processInfo.environment["ECBRATES_SEED"].flatMap(Int.init) ?? Int.random(in: 1...999_999)
        let oracle = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/Server/server_oracle.py").path,
                "differential", served.baseURL, FixturePaths.history.path, "\(seed)", "1000",
            ])
        #expect(oracle.status == 0, "rebuild with ECBRATES_SEED=\(seed): \(oracle.out.suffix(3_000)) \(oracle.err)")
        #expect(oracle.out.contains(", 0 differences"), "\(oracle.out.suffix(500))")
    }

    @Test func aDayAnswersWithTheECBsDigitsAndTheDayOfThePublicationUsed() async throws {
        let served = try await ServedStore()
        // 2024-03-30 is a Saturday after Good Friday: the publication of Thursday 28 answers.
        let answer = try RawHTTP.get("/2024-03-30?symbols=USD,JPY", port: served.port)
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        #expect(
            answer.body == #"{"amount":1,"base":"EUR","date":"2024-03-28","rates":{"USD":1.0811,"JPY":163.45}}"# + "\n")
        let amount = try RawHTTP.get("/v1/2024-03-28?from=EUR&to=USD&amount=12345.67", port: served.port)
        #expect(
            amount.body == #"{"amount":12345.67,"base":"EUR","date":"2024-03-28","rates":{"USD":13346.903837}}"# + "\n")
        let range = try RawHTTP.get("/2024-03-28..2024-04-02?symbols=USD", port: served.port)
        #expect(
            range.body
                == #"{"amount":1,"base":"EUR","start_date":"2024-03-28","end_date":"2024-04-02","rates":{"2024-03-28":{"USD":1.0811},"2024-04-02":{"USD":1.0749}}}"#
                + "\n", "\(range.body)")
    }

    @Test func v2AnswersRecordsAsJSONNDJSONAndCSV() async throws {
        let served = try await ServedStore()
        let day = try RawHTTP.get("/v2/rates?date=2024-03-30&quotes=USD,JPY", port: served.port)
        #expect(day.status == 200 && day.headers["content-type"] == "application/json")
        #expect(
            day.body
                == #"[{"date":"2024-03-28","base":"EUR","quote":"JPY","rate":163.45},{"date":"2024-03-28","base":"EUR","quote":"USD","rate":1.0811}]"#
                + "\n", "\(day.body)")
        let pair = try RawHTTP.get("/v2/rate/eur/usd?date=2024-03-28", port: served.port)
        #expect(pair.body == #"{"date":"2024-03-28","base":"EUR","quote":"USD","rate":1.0811}"# + "\n")
        let identity = try RawHTTP.get("/v2/rate/GBP/GBP?date=2024-03-30", port: served.port)
        #expect(identity.body == #"{"date":"2024-03-28","base":"GBP","quote":"GBP","rate":1}"# + "\n")
        let csv = try RawHTTP.get("/v2/rates.csv?from=2024-03-28&to=2024-04-02&quotes=USD", port: served.port)
        #expect(csv.headers["content-type"] == "text/csv; charset=utf-8")
        #expect(csv.body == "date,base,quote,rate\n2024-03-28,EUR,USD,1.0811\n2024-04-02,EUR,USD,1.0749\n")
        let ndjson = try RawHTTP.get(
            "/v2/rates?from=2024-03-28&to=2024-04-02&quotes=USD,EUR", port: served.port,
            headers: ["Accept": "application/x-ndjson"])
        #expect(ndjson.headers["content-type"] == "application/x-ndjson")
        #expect(
            ndjson.body == """
                {"date":"2024-03-28","base":"EUR","quote":"EUR","rate":1}
                {"date":"2024-03-28","base":"EUR","quote":"USD","rate":1.0811}
                {"date":"2024-04-02","base":"EUR","quote":"EUR","rate":1}
                {"date":"2024-04-02","base":"EUR","quote":"USD","rate":1.0749}

                """)
        let currency = try RawHTTP.get("/v2/currency/usd", port: served.port)
        #expect(
            currency.body
                == #"{"iso_code":"USD","iso_numeric":"840","name":"United States Dollar","symbol":"$","providers":["ECB"],"start_date":"1999-01-04","end_date":"2026-09-30"}"#
                + "\n")
        let providers = try RawHTTP.get("/v2/providers", port: served.port)
        #expect(providers.body.hasPrefix(#"[{"key":"ECB","name":"European Central Bank","#))
        // Only the currencies the ECB still quotes, unless scope=all; the euro among them.
        let active = try RawHTTP.get("/v2/currencies", port: served.port).body
        let all = try RawHTTP.get("/v2/currencies?scope=all", port: served.port).body
        #expect(active.contains(#""iso_code":"EUR""#) && !active.contains(#""iso_code":"CYP""#))
        #expect(
            all.contains(
                #"{"iso_code":"CYP","iso_numeric":"196","name":"Cypriot Pound","symbol":null,"start_date":"1999-01-04","end_date":"2007-12-31"}"#
            ))
    }

    @Test func gzipWhenAskedWithItsOwnETagAndTheSameBytesInflated() async throws {
        let served = try await ServedStore()
        // Python's http.client and gzip: an independent client and inflater.
        let script = """
            import gzip, http.client, sys
            def get(path, headers):
                c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
                c.request("GET", path, headers=headers)
                r = c.getresponse()
                return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
            for path in ["/2024-01-01..2024-03-31", "/v2/rates?from=2024-01-01&to=2024-01-31", "/api/currencies"]:
                _, plain_headers, plain = get(path, {})
                status, headers, packed = get(path, {"Accept-Encoding": "br;q=1.0, gzip;q=0.8"})
                assert status == 200 and headers.get("content-encoding") == "gzip", (path, headers)
                assert gzip.decompress(packed) == plain, path
                assert len(packed) * 3 < len(plain), (path, len(packed), len(plain))
                assert "content-encoding" not in plain_headers, path
                assert headers["etag"] != plain_headers["etag"] and headers["etag"].endswith('-gzip"'), headers
                refused = get(path, {"Accept-Encoding": "gzip;q=0, identity"})[1]
                assert "content-encoding" not in refused, refused
                again = get(path, {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})
                assert again[0] == 304, again
            small = get("/2024-03-28?symbols=USD", {"Accept-Encoding": "gzip"})[1]
            assert "content-encoding" not in small, small
            print("ok")
            """
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, "\(served.port)"])
        #expect(run.status == 0 && run.out == "ok\n", "\(run.out) \(run.err)")
    }

    @Test func aBatchConversionIsTheCommandLinesCSVAndALongOneStreams() async throws {
        let served = try await ServedStore()
        let directory = TemporaryDirectory()
        // 20,000 rows (about 1.3 MB of answer): streamed, chunked, in the command line's bytes.
        var rows = ["date,amount,from,to"]
        var generator = SeededGenerator(seed: 24)
        let codes = ["USD", "JPY", "GBP", "CHF", "EUR", "SEK"]
        for index in 0..<20_000 {
            let day = CalendarDay("2024-01-01")!.adding(days: Int.random(in: 0...400, using: &generator))
            rows.append(
                "\(day),\(index).25,\(codes.randomElement(using: &generator)!),\(codes.randomElement(using: &generator)!)"
            )
        }
        let input = directory.file("in.csv"), broken = directory.file("broken.csv")
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: input)
        // The same, with a bad row near the end: past the first 64 KiB of answer.
        try Data((rows.joined(separator: "\n") + "\n2024-02-30,1,USD,JPY\n").utf8).write(to: broken)
        try Data("date,amount,from,to\n2024-03-28,100,USD,XYZ\n".utf8).write(to: directory.file("bad.csv"))
        let cli = try CommandRun.process(["convert", "--input", input.path, "--store", served.store.path])
        #expect(cli.status == 0)
        try Data(cli.out.utf8).write(to: directory.file("expected.csv"))
        let script = """
            import http.client, sys
            port, folder = int(sys.argv[1]), sys.argv[2]
            def post(name):
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                c.request("POST", "/api/convert", body=open(f"{folder}/{name}", "rb").read(),
                          headers={"Content-Type": "text/csv"})
                r = c.getresponse()
                try:
                    return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read(), None
                except http.client.IncompleteRead as cut:
                    return r.status, {k.lower(): v for k, v in r.getheaders()}, cut.partial, cut
            status, headers, body, cut = post("in.csv")
            assert status == 200 and cut is None, (status, cut)
            assert headers.get("transfer-encoding") == "chunked", headers
            assert body == open(f"{folder}/expected.csv", "rb").read(), "the streamed CSV is not the command line's"
            status, headers, body, cut = post("broken.csv")
            assert status == 200 and cut is not None, "a failure past the first 64 KiB must cut the answer short"
            last = body.splitlines()[-1]
            assert last == b'error: request body:20002: date "2024-02-30" is not a day; expected a day that exists: February 2024 has 29 days (01 to 29)', last
            status, headers, body, cut = post("bad.csv")
            # The code `convert --input` gives the same file (it exits 65: bad data).
            assert status == 422 and b'"code":"bad-data"' in body, (status, body)
            print("ok")
            """
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, "\(served.port)", directory.url.path])
        #expect(run.status == 0 && run.out == "ok\n", "\(run.out) \(run.err)")
        // The server goes on answering.
        #expect(try RawHTTP.get("/2024-03-28?symbols=USD", port: served.port).status == 200)
    }

    @Test func parametersGivenTwiceOutOfRangeOrRepeatedAreRefusedNeverHalfRead() async throws {
        let served = try await ServedStore()
        let cases: [(String, Int, String)] = [
            (
                "/2024-03-28?symbols=USD&to=JPY", 422,
                "parameter symbols is given more than once (symbols=USD and to=JPY)"
            ),
            ("/2024-03-28?from=GBP&base=USD", 422, "parameter base is given more than once (from=GBP and base=USD)"),
            ("/2024-03-28?amount=1&amount=2", 422, "parameter amount is given more than once"),
            ("/api/latest?currencies=USD&currencies=GBP", 400, "parameter currencies is given more than once"),
            (
                "/2024-03-28?symbols=USD,USD", 422,
                "parameter symbols=USD,USD is invalid: expected currency codes like USD,JPY, each once (USD is listed twice)"
            ),
            (
                "/api/convert?amount=100&from=USD&to=JPY&precision=99999999999", 400,
                "parameter precision=99999999999 is invalid: expected a whole number from 0 to 20"
            ),
            (
                "/api/convert?amount=100&from=USD&to=JPY&precision=21", 400,
                "is invalid: expected a whole number from 0 to 20"
            ),
            (
                "/api/convert?amount=12345678901234567890&from=JPY&to=IDR&date=2024-03-28&precision=20", 422,
                "needs more than 38 significant digits, the most ecbrates computes exactly; ask for at most 12 decimal places"
            ),
        ]
        for (path, status, words) in cases {
            let answer = try RawHTTP.get(path, port: served.port)
            #expect(answer.status == status && answer.body.contains(words), "\(path): \(answer.status) \(answer.body)")
        }
        // A batch body that is not CSV is the client's error, not the server's.
        let script = """
            import http.client, sys
            c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
            c.request("POST", "/api/convert", body=b'date,amount,from,to\\n"2024-03-28,1,USD,GBP\\n')
            r = c.getresponse(); print(r.status, r.read().decode())
            """
        let posted = try SpawnedProcess.run(PythonTools.system, ["-c", script, "\(served.port)"])
        #expect(posted.out.hasPrefix("422 ") && posted.out.contains("a quoted field is not closed"), "\(posted.out)")
        // as_of reads the store as it was at a moment after its import (by the real clock, as
        // the import was recorded): the same answer here, and no longer a 500. The snapshot of the
        // whole history takes seconds in a debug build, more in a loaded suite: a minute, not 10 s.
        let later = Date().addingTimeInterval(86_400)
        let asOfServed = try await ServedStore(environment: ["ECBRATES_NOW": later.formatted(.iso8601)])
        try await Task.sleep(for: .seconds(1.1))
        let moment = Date().formatted(.iso8601)
        let asOf = try RawHTTP.get(
            "/api/rate?currencies=USD&date=2024-03-28&as_of=\(moment)", port: asOfServed.port, timeout: 60)
        #expect(asOf.status == 200 && asOf.body.contains(#""rate":1.0811"#), "\(asOf.status) \(asOf.body)")
    }

    @Test func aStoreBehindIsSaidSoByRangesCachesAndMetrics() async throws {
        // Ten days on: 2026-10-01..09 are out, the store ends on 09-30.
        let served = try await ServedStore(
            ["--cors", "https://app.example"], environment: ["ECBRATES_NOW": "2026-10-10T12:00:00Z"])
        let range = try RawHTTP.get("/v2/rates?from=2026-09-28&to=2026-10-10&quotes=USD", port: served.port)
        // One status per code: the store lacks published days, as a single stale day (503).
        #expect(range.status == 503 && range.body.contains(#""code":"incomplete-range""#), "\(range.body)")
        #expect(range.body.contains("or pass partial=true to accept what is stored"), "\(range.body)")
        #expect(range.body.contains("7 business days (2026-10-01..2026-10-09)"))
        // The newest stored day, with a short lifetime: the overdue publication may land any minute.
        let latest = try RawHTTP.get("/latest?symbols=USD", port: served.port)
        #expect(
            latest.headers["cache-control"] == "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400",
            "\(latest.headers)")
        #expect(try RawHTTP.get("/metrics", port: served.port).body.contains("ecbrates_store_age_business_days 7.0"))
        // Each representation its own ETag (of its own bytes); Vary: Origin even without an Origin.
        let json = try RawHTTP.get("/v2/rates?quotes=USD", port: served.port)
        let ndjson = try RawHTTP.get(
            "/v2/rates?quotes=USD", port: served.port, headers: ["Accept": "application/x-ndjson"])
        #expect(json.headers["etag"] != nil && ndjson.headers["etag"] != nil)
        #expect(ndjson.headers["etag"] != json.headers["etag"])
        // (RawHTTP keeps the last of two Vary fields: Origin, after Accept, Accept-Encoding.)
        let varies = try RawHTTP.get("/2024-03-28", port: served.port)
        #expect(varies.headers["vary"] == "Origin" && varies.headers["access-control-allow-origin"] == nil)
    }

    @Test func errorsHaveOneShapeFrankfurtersStatusesAndTheCommandLinesWords() async throws {
        let served = try await ServedStore()
        // Frankfurter's statuses: 404 for what it lacks, 422 for a request it cannot read.
        let cases: [(String, Int, String)] = [
            (
                "/2024-03-28?symbols=XYZ", 404,
                #"{"message":"unknown currency 'XYZ'","status":404,"code":"unknown-currency"}"#
            ),
            (
                "/2024-02-30", 422,
                #"{"message":"2024-02-30 is not a date (expected a day that exists: February 2024 has 29 days (01 to 29))","status":422,"code":"unprocessable"}"#
            ),
            (
                "/latest?symbol=USD", 422,
                #"{"message":"unknown parameter symbol=USD","status":422,"code":"bad-parameter"}"#
            ),
            (
                "/latest?amount=ten", 422,
                #"{"message":"parameter amount=ten is invalid: expected a number like 100, 12.50 or -3.10","status":422,"code":"bad-parameter"}"#
            ),
            (
                "/latest?base=USD&symbols=USD", 422,
                #"{"message":"bad currency pair: symbols=USD is the base itself","status":422,"code":"unprocessable"}"#
            ),
            ("/nothing", 404, #"{"message":"not found","status":404,"code":"not-found"}"#),
            (
                "/v2/rates?date=2024-03-28&from=2024-03-01", 422,
                #"{"message":"conflicting params: date with from/to","status":422,"code":"unprocessable"}"#
            ),
            (
                "/v2/rates?expand=providers", 422,
                #"{"message":"invalid expand: providers (one provider, the ECB: nothing to expand)","status":422,"code":"unprocessable"}"#
            ),
            (
                "/v2/rates?providers=ECB,FED", 422,
                #"{"message":"invalid providers: ECB,FED (this server has one provider, ECB)","status":422,"code":"unprocessable"}"#
            ),
            (
                "/v2/currency/XYZ", 404,
                #"{"message":"not found: the ECB has never quoted XYZ","status":404,"code":"not-found"}"#
            ),
            (
                "/v2/rate/EUR/USD.csv", 406,
                #"{"message":"CSV is served for /v2/rates.csv only","status":406,"code":"not-acceptable"}"#
            ),
            (
                "/api/rate?currencies=USD&date=2024-02-30", 400,
                #"{"message":"parameter date=2024-02-30 is invalid: expected a day that exists: February 2024 has 29 days (01 to 29)","status":400,"code":"bad-parameter"}"#
            ),
        ]
        for (path, status, body) in cases {
            let answer = try RawHTTP.get(path, port: served.port)
            #expect(answer.status == status, "\(path)")
            #expect(answer.body == body + "\n", "\(path)")
        }
        // A currency past its end is not answered with an old rate.
        let ended = try RawHTTP.get("/2010-06-01?symbols=CYP", port: served.port)
        #expect(ended.status == 404, "\(ended.body)")
        // A holiday right after an end: the publication before it had EEK, the day has none.
        // (Found by the oracle: the whole answer was a 404, on the command line too.)
        let newYear = try RawHTTP.get("/2011-01-01", port: served.port)
        #expect(newYear.status == 200 && newYear.body.contains(#""date":"2010-12-31""#), "\(newYear.body)")
        #expect(!newYear.body.contains("EEK") && newYear.body.contains(#""USD":1.3362"#), "\(newYear.body)")
        let cli = try CommandRun.process(["rate", "--date", "2011-01-01", "--store", served.store.path])
        #expect(cli.status == 0 && !cli.out.contains("EEK"), "\(cli)")
    }

    @Test func theNativeAPIAnswersExactlyWhatTheCommandLinePrints() async throws {
        let served = try await ServedStore()
        let pairs: [(String, [String])] = [
            ("/api/rate?currencies=USD&date=2024-03-28", ["rate", "USD", "--date", "2024-03-28"]),
            (
                "/api/rate?currencies=USD,GBP&date=2024-03-30&base=CHF",
                ["rate", "USD,GBP", "--date", "2024-03-30", "--base", "CHF"]
            ),
            (
                "/api/convert?amount=100&from=USD&to=JPY&date=2024-03-28",
                ["convert", "100", "USD", "JPY", "--date", "2024-03-28"]
            ),
            (
                "/api/series?currencies=USD&from=2024-01-01&to=2024-03-31&group=month",
                ["series", "USD", "--from", "2024-01-01", "--to", "2024-03-31", "--group", "month"]
            ),
            (
                "/api/stats?currency=GBP&from=2023-01-01&to=2023-12-31",
                ["stats", "GBP", "--from", "2023-01-01", "--to", "2023-12-31"]
            ),
            ("/api/currencies", ["currencies"]),
        ]
        for (path, arguments) in pairs {
            let answer = try RawHTTP.get(path, port: served.port)
            let cli = try CommandRun.process(arguments + ["--format", "json", "--store", served.store.path])
            #expect(answer.status == 200, "\(path): \(answer.body)")
            #expect(answer.body == cli.out, "\(path)")
        }
        let csv = try RawHTTP.get(
            "/api/rate?currencies=USD&date=2024-03-28", port: served.port, headers: ["Accept": "text/csv"])
        let cliCSV = try CommandRun.process([
            "rate", "USD", "--date", "2024-03-28", "--format", "csv", "--store", served.store.path,
        ])
        #expect(csv.body == cliCSV.out)
        #expect(csv.headers["content-type"] == "text/csv; charset=utf-8")
        let error = try RawHTTP.get("/api/rate?currencies=USD&date=1998-01-02", port: served.port)
        let cliError = try CommandRun.process([
            "rate", "USD", "--date", "1998-01-02", "--format", "json", "--store", served.store.path,
        ])
        #expect(error.status == 404)
        // The same words as the command line's, in the one error shape of every endpoint.
        let cliJSON = try JSONSerialization.jsonObject(with: Data(cliError.err.utf8)) as? [String: Any]
        let cliMessage = try #require(cliJSON?["error"] as? String)
        #expect(
            error.body
                == #"{"message":"\#(cliMessage)","status":404,"code":"before-first-day"}"# + "\n", "\(error.body)")
    }

    @Test func validatorsGive304sAndHEADGivesTheHeadersAlone() async throws {
        let served = try await ServedStore()
        let first = try RawHTTP.get("/2024-03-28", port: served.port)
        let etag = try #require(first.headers["etag"])
        let modified = try #require(first.headers["last-modified"])
        #expect(
            first.headers["cache-control"]
                == "public, max-age=86400, stale-while-revalidate=604800, stale-if-error=2592000")
        let again = try RawHTTP.get("/2024-03-28", port: served.port, headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        #expect(again.headers["etag"] == etag)
        let since = try RawHTTP.get("/2024-03-28", port: served.port, headers: ["If-Modified-Since": modified])
        #expect(since.status == 304)
        let other = try RawHTTP.get("/2024-03-28", port: served.port, headers: ["If-None-Match": "\"other\""])
        #expect(other.status == 200 && other.body == first.body)
        let head = try RawHTTP.get("/2024-03-28", port: served.port, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-length"] == "\(first.body.utf8.count)")
        // The newest day lasts until the next publication is due (16:00 Frankfurt time).
        let latest = try RawHTTP.get("/latest", port: served.port)
        // ECBRATES_NOW is 2026-10-01T12:00Z; 2026-10-01 16:00 CEST is 14:00Z: 7,200 s.
        #expect(
            latest.headers["cache-control"] == "public, max-age=7200, stale-while-revalidate=300, stale-if-error=86400",
            "\(latest.headers)")
    }

    @Test func methodsAndCORS() async throws {
        let served = try await ServedStore(["--cors", "https://books.example"])
        let delete = try RawHTTP.get("/latest", port: served.port, method: "DELETE")
        #expect(delete.status == 405)
        #expect(delete.headers["allow"] == "GET, HEAD, OPTIONS")
        let post = try RawHTTP.get("/api/convert", port: served.port, method: "PUT")
        #expect(post.headers["allow"] == "GET, HEAD, POST, OPTIONS")
        let allowed = try RawHTTP.get("/latest", port: served.port, headers: ["Origin": "https://books.example"])
        #expect(allowed.headers["access-control-allow-origin"] == "https://books.example")
        let other = try RawHTTP.get("/latest", port: served.port, headers: ["Origin": "https://evil.example"])
        #expect(other.headers["access-control-allow-origin"] == nil)
        let preflight = try RawHTTP.get(
            "/latest", port: served.port, method: "OPTIONS",
            headers: ["Origin": "https://books.example", "Access-Control-Request-Method": "GET"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS")
    }

    @Test func abuseIsRefusedAndTheServerGoesOnAnswering() async throws {
        let served = try await ServedStore()
        let port = served.port
        // A request line libmicrohttpd cannot parse: it closes the connection (0) or answers 400.
        let nonsense = try RawHTTP.send("NONSENSE\r\n\r\n", port: port)
        #expect(nonsense.status == 0 || nonsense.status == 400, "status \(nonsense.status)")
        #expect(try RawHTTP.send("GET /latest HTTP/9.9\r\n\r\n", port: port).status != 200)
        #expect(try RawHTTP.get("/../etc/passwd", port: port).status == 400)
        #expect(try RawHTTP.get("/latest%00", port: port).status == 400)
        #expect(try RawHTTP.get("/latest?x=%zz", port: port).status == 400)
        #expect(try RawHTTP.get("/" + String(repeating: "a", count: 5_000), port: port).status == 414)
        let huge = try RawHTTP.get(
            "/latest", port: port, headers: ["X-Filler": String(repeating: "x", count: 64 * 1_024)])
        #expect(huge.status == 431 || huge.status == 413, "status \(huge.status)")
        let overlong = try RawHTTP.get("/1999-01-04..2026-09-30?symbols=USD", port: port)
        #expect(overlong.status == 200, "a whole-history range is answered")
        #expect(try RawHTTP.get("/latest", port: port).status == 200, "still answering")
    }

    @Test func anImportByAnotherProcessShowsInTheNextAnswer() async throws {
        let served = try await ServedStore()
        let before = try RawHTTP.get("/latest?symbols=USD", port: served.port)
        #expect(before.body.contains(#""date":"2026-09-30""#))
        // Asked again: the same bytes (from the answer cache, while nothing commits).
        #expect(try RawHTTP.get("/latest?symbols=USD", port: served.port).body == before.body)
        let daily = try String(contentsOf: FixturePaths.daily, encoding: .utf8)
            .replacingOccurrences(of: "time='2026-09-30'", with: "time='2026-10-01'")
            .replacingOccurrences(of: "rate='1.1355'", with: "rate='1.1401'")
        let file = served.directory.file("next.xml")
        try daily.write(to: file, atomically: true, encoding: .utf8)
        let imported = try SpawnedProcess.run(
            CommandRun.executable, ["import", file.path, "--store", served.store.path, "--quiet"],
            environment: ["ECBRATES_NOW": "2026-10-01T18:00:00Z"])
        #expect(imported.status == 0, "\(imported.err)")
        let after = try RawHTTP.get("/latest?symbols=USD", port: served.port)
        #expect(after.body == #"{"amount":1,"base":"EUR","date":"2026-10-01","rates":{"USD":1.1401}}"# + "\n")
        #expect(after.headers["etag"] != before.headers["etag"])
    }

    @Test func SIGTERMStopsItCleanlyAndTheAccessLogHasALinePerRequest() async throws {
        let served = try await ServedStore()
        _ = try RawHTTP.get("/latest?symbols=USD", port: served.port)
        _ = try RawHTTP.get("/nothing", port: served.port)
        let ended = try served.stop(SIGTERM)
        #expect(ended.status == 0, "\(ended)")
        let lines = ended.err.split(separator: "\n")
        #expect(lines.contains { $0.contains(" GET /latest?symbols=USD 200 ") && $0.hasSuffix(" µs") }, "\(ended.err)")
        #expect(lines.contains { $0.contains(" GET /nothing 404 ") }, "\(ended.err)")
        #expect(lines.last == "stopped")
    }
}
