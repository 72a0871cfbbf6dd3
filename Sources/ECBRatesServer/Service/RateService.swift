import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization

/// The HTTP face of a rates store: routes a request to Frankfurter's v1 API, our own `/api/`,
/// `/healthz` or `/metrics`, and dresses the answer for HTTP (status, `ETag`, `Last-Modified`,
/// `Cache-Control`, CORS, conditional requests, methods). Every answer is read from one state
/// of the store, on the calling thread (see ``RatesStore/readSnapshot(now:_:)``).
package final class RateService: Sendable {
    /// What the operator chose.
    package struct Settings: Sendable {
        /// The origin allowed to read answers from a browser (`*` for any), or none.
        package var corsOrigin: String?
        /// `/healthz` answers 503 when the newest stored day is more business days old than this.
        package var maxAgeDays: Int?
        /// Which store is served, and why (`/api/status` says), when known.
        package var storeLocation: StoreLocation?
        /// The version the OpenAPI document names.
        package var version = "1.0.0"
        /// What the answer cache may hold, in bytes (``AnswerCache/maximumBytes``).
        package var cacheBytes = AnswerCache.defaultBytes
        /// How `/mcp` is exposed (MCP over Streamable HTTP).
        package var mcp = MCPEndpoint.Settings()

        /// No CORS, no freshness limit.
        package init(corsOrigin: String? = nil, maxAgeDays: Int? = nil, storeLocation: StoreLocation? = nil) {
            self.corsOrigin = corsOrigin
            self.maxAgeDays = maxAgeDays
            self.storeLocation = storeLocation
        }
    }

    /// The store answered from.
    package let store: RatesStore
    /// The request figures `/metrics` reports.
    package let metrics: ServerMetrics
    let settings: Settings
    private let clock: @Sendable () -> Date
    /// The newest stored day of each history transaction asked about.
    private let newestDays = Mutex<[Int64: CalendarDay]>([:])
    /// When the newest correction recorded at a history token was made (nil: none).
    private let correctionDates = Mutex<[Int64: Date?]>([:])
    /// The newest stored day at a history token, for `/healthz`.
    private let healthDays = Mutex<(token: HistoryToken, lastDay: CalendarDay?)?>(nil)
    /// Answers kept while the store's history token stays the same.
    private let answers: AnswerCache
    /// The page at `/` for a browser.
    let page: HomePage
    /// `/mcp`: the MCP tools over Streamable HTTP.
    private let mcp: MCPEndpoint
    /// The steps around every route (``ResponseStep``), outermost first.
    private let steps: [any ResponseStep]
    /// The TARGET calendar at the current second (computed once a second, not per request).
    private let calendar = Mutex<CalendarMoment?>(nil)

    /// What the TARGET calendar says at one second: today, the newest day due, and when the
    /// next publication is.
    private struct CalendarMoment {
        let second: Int64
        let today: CalendarDay
        let due: CalendarDay
        let nextPublication: Date
    }

    private func calendar(at now: Date) -> CalendarMoment {
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        if let known = calendar.withLock({ $0 }), known.second == second { return known }
        let due = TargetCalendar.latestDueDay(at: now)
        var next = due.adding(days: 1)
        while !TargetCalendar.isBusinessDay(next) { next = next.adding(days: 1) }
        let moment = CalendarMoment(
            second: second, today: TargetCalendar.today(at: now), due: due,
            nextPublication: TargetCalendar.publicationTime(of: next))
        calendar.withLock { $0 = moment }
        return moment
    }

    /// A service answering from `store`; `clock` is "now" (tests set it).
    package init(
        store: RatesStore, settings: Settings = Settings(), metrics: ServerMetrics = ServerMetrics(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.settings = settings
        self.answers = AnswerCache(maximumBytes: settings.cacheBytes)
        self.page = HomePage(store: store, storeLocation: settings.storeLocation, version: settings.version)
        self.metrics = metrics
        self.clock = clock
        let server = MCPServer(
            store: store, storeLocation: settings.storeLocation, version: settings.version, clock: clock,
            observe: { metrics.recordToolCall($0, failed: $1) })
        self.mcp = MCPEndpoint(server: server, settings: settings.mcp)
        self.steps = Self.steps(settings)
    }

    /// The response to `request`, and the name of the route that answered (for the metrics):
    /// `request` through the ``steps``, the route table at their centre.
    package func respond(to request: HTTPRequest) -> (response: HTTPResponse, route: String) {
        do {
            let outgoing = try passOn(request, from: 0)
            return (outgoing.response, outgoing.route)
        } catch {
            // Every route's failure is answered by ErrorStatusStep; what else a step throws is
            // the server's own failure, a 500 saying what it was.
            let response = ServiceError.response(status: 500, ServiceError.message(of: error))
            return (response, "error")
        }
    }

    /// `request` through the steps from `index` on; past the last, the route table answers.
    private func passOn(_ request: HTTPRequest, from index: Int) throws -> Outgoing {
        guard index < steps.count else { return try route(request) }
        return try steps[index].respond(to: request, in: self) { try passOn(request, from: index + 1) }
    }

    /// The steps around every route, outermost first (``ResponseStep``).
    static func steps(_ settings: Settings) -> [any ResponseStep] {
        let cors: [any ResponseStep] = settings.corsOrigin.map { [CORSStep(origin: $0)] } ?? []
        return cors + [ErrorStatusStep(), ValidatorStep(), CompressionStep()]
    }

    /// The answer of the route `request` asks for (from the answer cache when it holds it); a
    /// 405 naming the methods the path takes, or those methods for OPTIONS; a handler's failure
    /// thrown as a ``RouteFailure`` (``ErrorStatusStep`` gives its status).
    private func route(_ request: HTTPRequest) throws -> Outgoing {
        let path = request.path
        if path == MCPEndpoint.path {
            let (response, name) = mcp.respond(to: request)
            return Outgoing(response, route: name)
        }
        let table = Self.routes
        guard request.method != "OPTIONS",
            let route = table.first(where: { $0.paths.matches(path) && $0.takes(request.method) })
        else {
            let allowed = Route.allowed(path, in: table)
            if request.method == "OPTIONS" {
                return Outgoing(HTTPResponse(status: 204, headers: [("Allow", allowed)]), route: "options")
            }
            var response = ServiceError.response(
                status: 405, "method \(request.method) is not allowed on \(path); use \(allowed)")
            response.headers.append(("Allow", allowed))
            return Outgoing(response, route: "method")
        }
        let now = clock()
        // A GET the store has answered since its last change is answered again from the cache.
        var key: AnswerCache.Key?
        var current: HistoryToken?
        if route.cacheable, let token = try? store.currentHistoryToken() {
            let asked = cacheKey(request, now: now)
            if let entry = answers.entry(for: asked, at: token) {
                return Outgoing(answer: entry.answer, route: entry.route, cached: entry)
            }
            (key, current) = (asked, token)
        }
        let api = NativeAPI(store: store, storeLocation: settings.storeLocation)
        let answer: EndpointAnswer, name: String
        do {
            (answer, name) = try route.handler(Route.Asked(service: self, request: request, now: now, api: api))
        } catch {
            throw RouteFailure(route: route, error: error)
        }
        // Kept only when read at the token asked before (no commit landed in between).
        if let key, let current, answer.status == 200, answer.stream == nil, answer.token == current {
            let entry = answers.keep(answer, route: name, for: key, token: current)
            return Outgoing(answer: answer, route: name, cached: entry)
        }
        return Outgoing(answer: answer, route: name, cached: nil)
    }

    /// The service's clock: now (tests set it).
    func now() -> Date { clock() }

    /// The answer cache's key for `request` at `now`.
    private func cacheKey(_ request: HTTPRequest, now: Date) -> AnswerCache.Key {
        let moment = calendar(at: now)
        return AnswerCache.Key(
            target: request.target, accept: request.header("accept") ?? "", today: moment.today, due: moment.due)
    }

    /// Whether `request` is heavy: a range of days (`/api/series`, `/api/stats`, v1's
    /// `/start..end`, v2's `/v2/rates?from=`, the page's chart with a `start`) that the answer cache does not hold. What the daemon
    /// bounds (``HTTPDaemonSettings/maximumHeavy``); the route names a refusal in the metrics.
    package func weigh(_ request: HTTPRequest) -> (heavy: Bool, route: String) {
        let path = request.path
        if path == MCPEndpoint.path && request.method == "POST" {
            // A tool call of a range is as heavy as the range asked over HTTP.
            let tool = MCPServer.calledTool(in: request.body)
            guard let tool, Questions.named(tool)?.readsRange == true else { return (false, "") }
            return (true, "mcp/\(tool)")
        }
        guard let route = Self.routes.first(where: { $0.paths.matches(path) && $0.takes(request.method) }),
            let name = route.heavy?(request)
        else { return (false, "") }
        // A range the answer cache holds is not heavy.
        if route.cacheable, let token = try? store.currentHistoryToken(),
            answers.entry(for: cacheKey(request, now: clock()), at: token) != nil
        {
            return (false, name)
        }
        return (true, name)
    }

    /// The answer to a heavy request refused at the limit (``HTTPDaemon/Refuser``): an MCP tool
    /// call gets a tool result with its own id and `isError`, saying to try again, as a model
    /// reads it (the metrics count it as a failed call); any other request, the usual `503`.
    package func refuseHeavy(_ request: HTTPRequest, saying words: String) -> HTTPResponse? {
        guard request.path == MCPEndpoint.path, let line = MCPServer.busyAnswer(to: request.body, saying: words) else {
            return nil
        }
        if let tool = MCPServer.calledTool(in: request.body) { metrics.recordToolCall(tool, failed: true) }
        return HTTPResponse(status: 200, contentType: "application/json", text: line)
    }

    /// Whether `accept` takes HTML before JSON (a browser's `text/html,…`; not `*/*` alone).
    static func prefersHTML(_ accept: String?) -> Bool {
        guard let accept else { return false }
        let types = accept.split(separator: ",").map {
            $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let html = types.firstIndex(where: { $0 == "text/html" || $0 == "application/xhtml+xml" }) else {
            return false
        }
        let json = types.firstIndex(of: "application/json") ?? types.count
        return html < json
    }

    /// The first 128 bits of the SHA-256 of an answer's media type and bytes, in hexadecimal.
    static func contentTag(_ answer: EndpointAnswer) -> String {
        String(SHA256.hex(Array((answer.contentType + "\n" + answer.body).utf8)).prefix(32))
    }

    /// `Cache-Control` for an answer (RFC 9111, with RFC 5861's extensions for a cache in
    /// front): a past day changes only by an ECB correction (a day fresh, then a cache may answer
    /// stale for a week while it revalidates, and for 30 days while the server fails); the
    /// newest day holds until the ECB's next publication is due (then five minutes stale while a
    /// cache revalidates, a day while the server fails).
    func cacheControl(_ freshness: EndpointAnswer.Freshness, token: HistoryToken?, now: Date) -> String {
        switch freshness {
        case .past: return "public, max-age=86400, stale-while-revalidate=604800, stale-if-error=2592000"
        case .current:
            // The ECB's publication is overdue (late, or not yet imported): it may land any
            // minute, so a cache asks again in one.
            if let token, let newest = newestDay(at: token), newest < calendar(at: now).due {
                return "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400"
            }
            let seconds = Int(calendar(at: now).nextPublication.timeIntervalSince(now))
            return "public, max-age=\(max(60, seconds)), stale-while-revalidate=300, stale-if-error=86400"
        case .uncached: return "no-store"
        }
    }

    /// `Last-Modified` from the data: when the ECB published the store's newest day (16:00
    /// Frankfurt time that day), the same on every replica that holds it; or, when later, when
    /// the store recorded its newest correction (so that a client revalidating with
    /// If-Modified-Since alone never keeps a corrected rate); never after now.
    func lastModified(at token: HistoryToken, now: Date) -> (date: Date, text: String)? {
        guard let newest = newestDay(at: token) else { return nil }
        let corrected = correctionDates.withLock { $0[token.transactionNumber] ?? nil }
        let date = min(max(TargetCalendar.publicationTime(of: newest), corrected ?? .distantPast), now)
        return (date, HTTPDate.text(date))
    }

    /// The newest stored day in the state `token` names (read once per token).
    private func newestDay(at token: HistoryToken) -> CalendarDay? {
        if let known = newestDays.withLock({ $0[token.transactionNumber] }) { return known }
        guard
            let ((bounds, corrected), read) = try? store.readSnapshot(
                now: clock(), { (try $0.bounds(), (try? $0.corrections())?.first?.correctedAt) }),
            read == token
        else {
            return nil
        }
        correctionDates.withLock { $0[token.transactionNumber] = corrected }
        newestDays.withLock { $0[token.transactionNumber] = bounds.last }
        return bounds.last
    }

    // MARK: Health and metrics

    /// `/healthz`: the newest stored day and its age, read once per state of the store (a
    /// liveness probe costs a read of the history token, whatever the load).
    func health(now: Date) throws -> EndpointAnswer {
        let due = calendar(at: now).due
        let token = try? store.currentHistoryToken()
        let lastDay: CalendarDay?
        if let token, let known = healthDays.withLock({ $0 }), known.token == token {
            lastDay = known.lastDay
        } else {
            let (read, readAt) = try store.readSnapshot(now: now) { queries -> CalendarDay? in
                try? queries.bounds().last
            }
            lastDay = read
            if let readAt { healthDays.withLock { $0 = (readAt, read) } }
        }
        let ageDays = lastDay.map { max(0, due.days(since: $0)) } ?? 0
        var fields: [(String, JSONText)] = [
            ("status", .string("ok")), ("lastDay", lastDay.map { .string("\($0)") } ?? .null),
            ("ageDays", .number(Double(ageDays))),
        ]
        var answer = EndpointAnswer(body: "", token: nil, freshness: .uncached)
        if lastDay == nil {
            fields[0] = ("status", .string("empty"))
            answer.status = 503
        } else if let limit = settings.maxAgeDays, ageDays > limit {
            fields[0] = ("status", .string("stale"))
            fields.append(("maxAgeDays", .number(Double(limit))))
            answer.status = 503
        }
        answer.body = JSONText.object(fields).text + "\n"
        return answer
    }

    func metricsAnswer(now: Date) throws -> EndpointAnswer {
        let (status, _) = try store.readSnapshot(now: now) { try $0.status() }
        var gauges: [(name: String, help: String, value: Double)] = [
            (
                "ecbrates_store_newest_day_timestamp_seconds", "The newest stored day (its midnight, UTC).",
                status.lastDay.map { $0.date.timeIntervalSince1970 } ?? 0
            ),
            (
                "ecbrates_store_age_business_days", "Business days whose rates are out and not stored.",
                Double(status.missingBusinessDays.count)
            ),
            ("ecbrates_store_rates", "Rates stored.", Double(status.rates)),
            ("ecbrates_answer_cache_bytes", "What the kept answers are charged, in bytes.", Double(answers.bytes)),
        ]
        if let run = status.lastRun {
            gauges.append(
                (
                    "ecbrates_last_import_success", "1 when the last import succeeded, else 0.",
                    run.outcome == "succeeded" || run.outcome == "not modified" ? 1 : 0
                ))
            gauges.append(
                (
                    "ecbrates_last_import_timestamp_seconds", "When the last import started.",
                    run.startedAt.timeIntervalSince1970
                ))
        }
        return EndpointAnswer(
            body: metrics.text(gauges: gauges), contentType: "text/plain; version=0.0.4; charset=utf-8", token: nil,
            freshness: .uncached)
    }
}
