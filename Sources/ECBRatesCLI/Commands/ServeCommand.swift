import ECBRates
import ECBRatesServer
import Foundation
import Synchronization

/// `ecbrates serve`: the store's rates over HTTP, as Frankfurter's v1 and v2 APIs and our own `/api/`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "serve",
        abstract:
            "Answer rate queries over HTTP: a page for browsers at /, Frankfurter's v1 and v2 APIs, /api/, /healthz, /metrics.",
        discussion: """
            Listens on loopback by default. Every answer is read from one state of the store, beside any
            import (a cron import shows in the next request). An ETag names the answer's bytes (the same on
            every replica, kept by an import that changes nothing), so a cache in front revalidates with 304s.
            A range not yet cached is made on a thread of its own, at most --max-heavy at once (503 with
            Retry-After past it). One access-log line per request goes to standard error, or to --access-log's
            file, written by a thread of its own from a 1 MiB buffer: when the log's reader does not keep up,
            lines are dropped (counted in /metrics as ecbrates_access_log_dropped_lines_total, and said on
            standard error once it flows again), never the requests. SIGHUP reopens the --access-log file
            (after logrotate moved it). /mcp answers MCP over Streamable HTTP (the tools of 'ecbrates mcp', for
            hosted assistants), refusing a foreign Origin (403; --mcp-origin allows one) and, with
            --mcp-token-file, a request without the bearer token (401). --health-listen adds a plain-HTTP listener for /healthz and /metrics
            alone (a container's health check, a scraper, a probe beside a TLS server). SIGINT or SIGTERM
            stop accepting, finish the requests in flight (up to 4 s) and exit 0.
            Under systemd socket activation (LISTEN_FDS) it serves the socket it is given.
            """)

    @Option(
        .text(
            "--listen", value: "address:port",
            help: "Where to listen (default: 127.0.0.1:8080; [::1]:8080 for IPv6; port 0 for any free one)."))
    var listen: String?
    @Option(
        .text(
            "--health-listen", value: "address:port",
            help:
                "Also answer /healthz and /metrics here, in plain HTTP (a container's health check or a scraper beside --tls-cert)."
        ))
    var healthListen: String?
    @Option(.integer("--threads", minimum: 1, help: "Threads answering requests (default: 4).")) var threads: Int?
    @Option(.text("--cors", value: "origin", help: "Let browsers on this origin (or *) read the answers."))
    var cors: String?
    @Option(.integer("--max-age-days", minimum: 0, help: "/healthz answers 503 when the store is more days behind."))
    var maxAgeDays: Int?
    @Option(
        .choice(
            "--refresh", value: "when",
            help: "auto: import the ECB's rates in this process when they are due, retrying until in; off (default)."
        ))
    var refresh: Refresh?
    @Option(
        .text(
            "--tls-cert", value: "file",
            help: "Serve HTTPS with this certificate chain (PEM; with --tls-key), through libmicrohttpd's GnuTLS.",
            completion: .file))
    var tlsCert: String?
    @Option(
        .text("--tls-key", value: "file", help: "The private key of --tls-cert (PEM).", completion: .file))
    var tlsKey: String?
    @Option(
        .integer(
            "--max-heavy", minimum: 1,
            help:
                "Ranges answered at once (default: 2), each beside the threads that serve connections; past it, 503 with Retry-After."
        ))
    var maxHeavy: Int?
    @Option(
        .integer(
            "--cache-bytes", value: "bytes", minimum: 0,
            help: "What the answer cache may hold (default: 67108864, 64 MiB); the oldest answers leave first."))
    var cacheBytes: Int?
    @Flag(
        FlagSpec(
            "--print-openapi",
            help: "Print the OpenAPI 3.1 document of /api/ (also served at /api/openapi.json) and exit."))
    var printOpenAPI: Bool
    @Option(
        .text(
            "--access-log", value: "path|-|off",
            help:
                "Where the access log goes: - for standard error (the default), a file (appended to; reopened on SIGHUP), or off.",
            completion: .file))
    var accessLog: String?
    @Option(
        .text(
            "--mcp-origin", value: "origins",
            help:
                "Origins (comma-separated, or *) whose browser-borne requests /mcp answers besides the server's own; others get 403."
        ))
    var mcpOrigin: String?
    @Option(
        .text(
            "--mcp-token-file", value: "file",
            help: "/mcp answers only requests with 'Authorization: Bearer <the file's first line>' (401 otherwise).",
            completion: .file))
    var mcpTokenFile: String?
    @Option(CommonOptions.store) var store: String?

    /// `--refresh`'s values.
    enum Refresh: String, Sendable, CaseIterable {
        /// Import at each publication time, retrying with back-off until the day is in.
        case auto
        /// Serve the store as other imports (cron, a timer) keep it.
        case off
    }

    var outputFormat: OutputFormat? { nil }
    var stopsPolitelyOnSignals: Bool { true }
    var runsOnMainThread: Bool { false }

    func run(_ context: CommandContext) async throws -> Int32 {
        let name = Self.configuration.name
        if printOpenAPI {
            context.console.out(OpenAPIDocument.document(version: CLI.version).text + "\n")
            return ExitCode.success
        }
        var settings = HTTPDaemonSettings()
        if let listen { (settings.host, settings.port) = try Self.address(listen, option: "--listen", command: name) }
        var healthSettings: HTTPDaemonSettings?
        if let healthListen {
            var health = HTTPDaemonSettings()
            (health.host, health.port) = try Self.address(healthListen, option: "--health-listen", command: name)
            health.threads = 1
            health.connectionLimit = 64
            healthSettings = health
        }
        if let threads { settings.threads = threads }
        if let maxHeavy { settings.maximumHeavy = maxHeavy }
        switch (tlsCert, tlsKey) {
        case (nil, nil): break
        case (let cert?, let key?):
            settings.tls = (
                try Self.pem(key, option: "--tls-key", holding: "PRIVATE KEY", command: name),
                try Self.pem(cert, option: "--tls-cert", holding: "CERTIFICATE", command: name)
            )
        case (nil, _): throw UsageError("'--tls-key <file>' needs '--tls-cert <file>'", command: name)
        case (_, nil): throw UsageError("'--tls-cert <file>' needs '--tls-key <file>'", command: name)
        }
        settings.listeningSocket = Self.systemdSocket(context.environment)
        // Standard error and the access log are written by threads of their own: a reader that
        // stops reading (a stalled journald, a full pipe) never holds up an answer.
        let (errors, accessLog) = try Self.logs(accessLog, command: name)
        defer { errors.finish() }
        let storeLocation = context.storeLocation(self.store)
        var serviceSettings = RateService.Settings(
            corsOrigin: cors, maxAgeDays: maxAgeDays, storeLocation: storeLocation)
        serviceSettings.version = CLI.version
        if let cacheBytes { serviceSettings.cacheBytes = cacheBytes }
        if let mcpOrigin {
            serviceSettings.mcp.allowedOrigins = mcpOrigin.split(separator: ",").map {
                String($0.trimmingCharacters(in: .whitespaces))
            }
        }
        if let mcpTokenFile { serviceSettings.mcp.token = try Self.token(mcpTokenFile, command: name) }
        // Refreshing, the server imports into its store (creating it if need be); else it only reads.
        let refreshing = refresh == .auto
        let ecbBaseURL = try ImportCommand.ecbBaseURL(context.environment, command: name)
        let storeURL = storeLocation.url
        let store =
            // (No merging into a view context: requests read fresh contexts, which see each commit.)
            refreshing
            ? try RatesStore(url: storeURL, mergingIntoViewContext: false) : try RatesStore.forQueries(at: storeURL)
        let service = RateService(store: store, settings: serviceSettings, clock: { context.now })
        service.metrics.countLines(of: accessLog)
        // What both listeners do with a finished exchange and with libmicrohttpd's messages.
        let completed: @Sendable (HTTPDaemon.Exchange) -> Void = { exchange in
            service.metrics.record(exchange)
            accessLog?.write(AccessLog.line(exchange, at: Date()))
        }
        let daemonLog: @Sendable (String) -> Void = {
            errors.write("\(AccessLog.timestamp(Date())) libmicrohttpd: \($0)\n")
        }
        let daemon = try HTTPDaemon(
            settings: settings, handler: { service.respond(to: $0) }, weigh: { service.weigh($0) },
            refuse: { service.refuseHeavy($0, saying: $1) }, completed: completed, log: daemonLog)
        // The health listener: /healthz and /metrics, as the main one answers them, in plain HTTP.
        let healthDaemon = try healthSettings.map { health in
            try HTTPDaemon(
                settings: health,
                handler: { request in
                    guard request.path == "/healthz" || request.path == "/metrics" else {
                        return (
                            HTTPResponse(
                                status: 404, contentType: "text/plain; charset=utf-8",
                                text: "--health-listen answers /healthz and /metrics only\n"), "health-other"
                        )
                    }
                    return service.respond(to: request)
                },
                completed: completed, log: daemonLog)
        }
        let stop = ImportInterruption()
        let signals = SignalTrap.attach(stop)
        defer { signals.release() }
        let hangup = SignalTrap.onHangup { accessLog?.reopen() }
        defer { hangup.release() }
        let scheme = settings.tls == nil ? "http" : "https"
        // `127.0.0.1:8080`, or `127.0.0.1:8080 (socket 3 from systemd)`: the URL, then any note.
        let (address, note) =
            daemon.listening.firstIndex(of: " ").map {
                (String(daemon.listening[..<$0]), String(daemon.listening[$0...]))
            } ?? (daemon.listening, "")
        errors.write("serving \(store.url.path) on \(scheme)://\(address)/\(note) (Ctrl-C stops)\n")
        if let healthDaemon {
            errors.write("health checks (/healthz, /metrics) on http://\(healthDaemon.listening)/\n")
        }
        // $ECBRATES_REFRESH_RETRY_SECONDS: the first retry's delay (60 s; at most twice it then),
        // for tests and for an operator watching a late publication.
        let retry = context.environment["ECBRATES_REFRESH_RETRY_SECONDS"].flatMap(Double.init).map { max(0.1, $0) }
        let refresher =
            refreshing
            ? Task {
                await ScheduledRefresh(
                    store: store, clock: { context.now }, ecbBaseURL: ecbBaseURL, interruption: stop,
                    firstRetry: retry ?? 60, longestRetry: retry.map { $0 * 2 } ?? 1_800,
                    log: { errors.write($0) }
                ).run()
            } : nil
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in stop.observe { done.resume() } }
        daemon.stop()
        healthDaemon?.stop()
        if let refresher {
            // The refresh stops between chunks; a fetch in flight is not waited for past 10 s
            // (what it stored is whole: a chunk commits or rolls back).
            // (Not cancelled: the interruption stops it between chunks, and the run is recorded
            // as interrupted, where a cancellation would end it as a failure.)
            let first = Mutex(true)
            let finished = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                let finish: @Sendable (Bool) -> Void = { ended in
                    if first.withLock({ isFirst in
                        defer { isFirst = false }; return isFirst
                    }) {
                        done.resume(returning: ended)
                    }
                }
                Task {
                    await refresher.value; finish(true)
                }
                Task {
                    try? await Task.sleep(for: .seconds(10)); finish(false)
                }
            }
            if !finished { errors.write("refresh: still at work 10 s after the stop; stopping without it\n") }
        }
        if let accessLog, accessLog !== errors { accessLog.finish() }
        errors.write("stopped\n")
        return ExitCode.success
    }

    /// `host:port` of a listening option (`[::1]:8080`, `:8080` for every interface, `localhost`
    /// for 127.0.0.1), or a usage error naming the option.
    static func address(_ text: String, option: String, command: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("'\(option) \(text)' is not address:port (like 127.0.0.1:8080)", command: command)
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "0.0.0.0" : host == "localhost" ? "127.0.0.1" : host, port)
    }

    /// The writer of standard error, and the access log's (the same writer for `-`, the default;
    /// nil for `off`): a usage error when the file cannot be opened.
    static func logs(_ accessLog: String?, command: String) throws -> (errors: LogWriter, accessLog: LogWriter?) {
        switch accessLog ?? "-" {
        case "-":
            let errors = try LogWriter(.standardError)
            return (errors, errors)
        case "off":
            return (try LogWriter(.standardError, name: "standard error"), nil)
        case "":
            throw UsageError(
                "'--access-log <path|-|off>' is empty: give a file, - (standard error) or off", command: command)
        case let path:
            let file: LogWriter
            do { file = try LogWriter(.file(path)) } catch let error as LogWriterError {
                throw UsageError("'--access-log \(path)': \(error)", command: command)
            }
            return (try LogWriter(.standardError, name: "standard error"), file)
        }
    }

    /// The bearer token in the first line of `path` (a file, so that it is not in `ps`): a usage
    /// error naming the file when it cannot be read or holds no token.
    static func token(_ path: String, command: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(
                "'--mcp-token-file <file>' \(path): \(access(path, F_OK) == 0 ? "cannot be read (permission denied)" : "no such file")",
                command: command)
        }
        let token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let token, !token.isEmpty, !token.contains(where: { $0.isWhitespace }) else {
            throw UsageError(
                "'--mcp-token-file <file>' \(path): its first line holds no token (one word, such as openssl rand -hex 32 makes)",
                command: command)
        }
        return token
    }

    /// The PEM text of `path`, which must hold a `kind` block (`PRIVATE KEY`, `CERTIFICATE`): a
    /// usage error naming the option and the file when it cannot be read or holds something else
    /// (a key and a certificate given the wrong way round).
    static func pem(_ path: String, option: String, holding kind: String, command: String) throws -> String {
        func refuse(_ reason: String) -> UsageError {
            UsageError("'\(option) <file>' \(path): \(reason)", command: command)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw refuse(access(path, F_OK) == 0 ? "cannot be read (permission denied)" : "no such file")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN ") else { throw refuse("not PEM (no -----BEGIN line)") }
        guard text.contains(kind + "-----") else {
            throw refuse("holds no \(kind) block; were the key and the certificate swapped?")
        }
        return text
    }

    /// The socket systemd passed (`LISTEN_PID` is this process, `LISTEN_FDS` ≥ 1): descriptor 3.
    static func systemdSocket(_ environment: [String: String]) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        return 3
    }
}
