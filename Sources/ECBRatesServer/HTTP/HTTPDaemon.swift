import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd (loaded when the first daemon starts): it reads each
/// request whole (target, headers, body up to a limit), hands it to `handler` on one of its
/// threads, sends the answer, and reports each finished exchange to `completed` (for the access
/// log and the metrics).
///
/// `@unchecked Sendable`: `daemon` and `stopping` are written in `init` and by `stop()` under
/// `stateLock` (which a heavy answer's resumption also takes); the
/// rest is immutable or a `Mutex`/`Atomic` (the TLS key and certificate, C strings libmicrohttpd
/// reads, are written once in `init` and freed in `deinit`).
package final class HTTPDaemon: @unchecked Sendable {
    /// One finished exchange, as the access log and the metrics see it.
    package struct Exchange: Sendable {
        /// The method, and the target as sent.
        package let method: String
        /// The request target (path and query), as sent.
        package let target: String
        /// The status sent (0 when the connection ended before an answer).
        package let status: Int
        /// The body bytes sent.
        package let bytes: Int
        /// From the request line's arrival to the answer's handover.
        package let duration: Duration
        /// The route that answered (for metrics), as the handler named it.
        package let route: String
        /// How the exchange ended when not with its answer sent ("closed: idle past the timeout").
        package var ending: String? = nil
    }

    /// What the handler returns: the response, and the route's name for the metrics.
    package typealias Handler = @Sendable (HTTPRequest) -> (response: HTTPResponse, route: String)


    /// The port the daemon listens on (written once, in `init`).
    package private(set) var port: UInt16 = 0
    private let settings: HTTPDaemonSettings
    private let handler: Handler
    private let weigh: Weigher
    /// How a heavy request is refused when the limit is reached.
    private let refuse: Refuser
    /// Heavy requests being answered now.
    private let heavyInFlight = Atomic<Int>(0)
    /// Connections suspended while their heavy answer is made (until their thread takes it).
    private let suspended = Atomic<Int>(0)
    /// Set when a stop begins: no connection is suspended from then on.
    private let draining = Atomic<Bool>(false)
    /// Where heavy requests are answered.
    private let heavyQueue = DispatchQueue(label: "ecbrates.heavy", attributes: .concurrent)
    private let completed: @Sendable (Exchange) -> Void
    private let log: @Sendable (String) -> Void
    private let stateLock = Mutex<Void>(())
    private var daemon: OpaquePointer?
    /// Set (under `stateLock`) just before the daemon stops: no connection is resumed after.
    private var stopping = false
    /// Requests read but not yet finished: what a graceful stop waits for.
    private let inFlight = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    private let atLimit = Atomic<Bool>(false)
    /// The connection limit in force (the settings', bounded by the file descriptors).
    package let connectionLimit: Int
    private let api: UnsafePointer<cmhd_api>

    /// Starts listening as `settings` say; `handler` answers each request (on the daemon's
    /// threads), `completed` hears of each exchange once it is over.
    package init(
        settings: HTTPDaemonSettings, handler: @escaping Handler, weigh: @escaping Weigher = { _ in (false, "") },
        refuse: @escaping Refuser = { _, _ in nil },
        completed: @escaping @Sendable (Exchange) -> Void, log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.settings = settings
        self.handler = handler
        self.weigh = weigh
        self.refuse = refuse
        self.completed = completed
        self.log = log
        connectionLimit = Self.affordableConnections(settings.connectionLimit)
        api = try MicroHTTPD.api()
        // A streamed body's producer writes into a pipe whose reader goes when a client hangs
        // up: that is an EPIPE to handle, not a signal that ends the server.
        signal(SIGPIPE, SIG_IGN)
        var address = try ListenAddress(host: settings.host, port: settings.port)
        // ERROR_LOG: libmicrohttpd's own refusals (the connection limit) reach `log`.
        var flags =
            UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue) | UInt32(MHD_USE_ITC.rawValue)
            | UInt32(MHD_USE_EPOLL.rawValue) | UInt32(MHD_USE_ERROR_LOG.rawValue) | cmhd_suspend_flag()
        if address.isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
        if settings.tls != nil {
            guard cmhd_has_tls(api) != 0 else { throw ServeError.noTLS }
            flags |= cmhd_tls_flag()
        }
        // libmicrohttpd keeps pointers to the key and certificate: they live as long as the daemon.
        tlsKey = settings.tls.map { strdup($0.key) }
        tlsCertificate = settings.tls.map { strdup($0.certificate) }
        let (key, certificate) = (tlsKey, tlsCertificate)
        let holder = Box(self)
        box = holder
        let context = Unmanaged.passUnretained(holder).toOpaque()
        // A descriptor systemd was to pass that is not a listening socket (closed, a file) would
        // have the daemon fail every accept: refused before it starts.
        if let socket = settings.listeningSocket, ListenAddress.bound(to: socket) == nil {
            throw ServeError.cannotListen(
                address: "socket \(socket) (from systemd)", reason: String(cString: strerror(errno)))
        }
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var native = cmhd_settings(
                flags: flags, port: settings.port, address: sockaddr,
                listen_fd: settings.listeningSocket ?? -1, threads: UInt32(max(1, settings.threads)),
                connection_limit: UInt32(connectionLimit),
                connection_timeout: UInt32(settings.idleTimeoutSeconds),
                connection_memory_limit: settings.headerBytes, listen_backlog: 1_024,
                tls_key: key.map { UnsafePointer($0) }, tls_cert: certificate.map { UnsafePointer($0) },
                log: { cls, message in
                    guard let message else { return }
                    HTTPDaemon.daemon(cls)?.log(String(cString: message))
                })
            return cmhd_start(api, &native, Self.access, Self.finished, Self.arrived, Self.connections, context)
        }
        guard let started else {
            throw ServeError.cannotListen(
                address: settings.listeningSocket.map { "socket \($0) (from systemd)" } ?? address.description,
                reason: String(cString: strerror(errno)))
        }
        daemon = started
        port = settings.listeningSocket == nil && settings.port != 0 ? settings.port : cmhd_bound_port(api, started)
        if let socket = settings.listeningSocket {
            listening = "\(ListenAddress.bound(to: socket) ?? "?") (socket \(socket) from systemd)"
        } else {
            listening = (try? ListenAddress(host: settings.host, port: port))?.description ?? "\(settings.host):\(port)"
        }
    }

    /// Where it listens, for people: `127.0.0.1:8080`, `[::1]:8080`, or the address of the
    /// socket systemd handed over and its number (`127.0.0.1:8080 (socket 3 from systemd)`).
    package private(set) var listening = ""

    /// The TLS key and certificate handed to libmicrohttpd (C strings, freed with the daemon).
    private let tlsKey: UnsafeMutablePointer<CChar>?
    private let tlsCertificate: UnsafeMutablePointer<CChar>?

    /// The object the C callbacks are given, which leads back to the daemon (weakly).
    private var box: Box?

    /// Stops accepting connections, lets the requests in flight finish (for up to `grace`), and
    /// stops the daemon. Idempotent.
    package func stop(grace: Duration? = nil) {
        let current: OpaquePointer? = stateLock.withLock { _ in
            defer { daemon = nil }
            return daemon
        }
        guard let current else { return }
        draining.store(true, ordering: .sequentiallyConsistent)
        let listening = api.pointee.quiesce_daemon(current)
        if listening >= 0 && settings.listeningSocket == nil { close(listening) }
        // The requests in flight finish, for up to the grace; a suspended one (a heavy answer
        // being made) is waited for past it, as libmicrohttpd cannot stop with one suspended
        // (no new one is suspended from now: a heavy request gets 503).
        let deadline = ContinuousClock.now + (grace ?? .milliseconds(Int(settings.stopGraceSeconds * 1_000)))
        let last = deadline + .seconds(10)
        while inFlight.load(ordering: .acquiring) > 0 && ContinuousClock.now < last
            && (ContinuousClock.now < deadline || suspended.load(ordering: .acquiring) > 0)
        {
            usleep(5_000)
        }
        // A heavy answer finished from now on leaves its connection as it is: it must not be
        // resumed once the daemon is stopping.
        stateLock.withLock { _ in stopping = true }
        if suspended.load(ordering: .acquiring) == 0 {
            api.pointee.stop_daemon(current)
        } else {
            // (Not reached unless an answer took more than the grace and ten seconds: the process
            // ends with the daemon's threads.)
            log("stopping with \(suspended.load(ordering: .relaxed)) answers unfinished")
        }
    }

    deinit {
        stop(grace: .zero)
        free(tlsKey)
        free(tlsCertificate)
    }

    // MARK: libmicrohttpd's callbacks

    /// A weak way back from C to the daemon.
    private final class Box {
        weak var daemon: HTTPDaemon?
        init(_ daemon: HTTPDaemon) { self.daemon = daemon }
    }

    /// What one request gathers between its callbacks: owned by the connection's thread.
    private final class Pending {
        let target: String
        let started = ContinuousClock.now
        var sawFirstCall = false
        var body: [UInt8] = []
        var bodyTooLarge = false
        var method = ""
        var status = 0
        var bytes = 0
        var route = "unmatched"
        var stream: HTTPBodyStream?
        /// A heavy request's answer, made on another thread while the connection waited
        /// suspended; taken by the connection's thread once it is resumed.
        let ready = ReadyAnswer()
        init(target: String) { self.target = target }
    }

    /// A heavy request's answer, handed from the thread that made it to the connection's.
    private final class ReadyAnswer: Sendable {
        let answer = Mutex<(response: HTTPResponse, route: String)?>(nil)
    }

    private static func daemon(_ cls: UnsafeMutableRawPointer?) -> HTTPDaemon? {
        guard let cls else { return nil }
        return Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue().daemon
    }

    /// The request line arrived: the exchange's state starts here (with the raw target).
    private static let arrived:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            cls, uri, _ in
            let pending = Pending(target: uri.map { String(cString: $0) } ?? "")
            daemon(cls)?.inFlight.add(1, ordering: .relaxed)
            return Unmanaged.passRetained(pending).toOpaque()
        }

    private static let access: MHD_AccessHandlerCallback = {
        cls, connection, _, method, _, uploadData, uploadSize, state in
        guard let daemon = daemon(cls), let connection, let state, let raw = state.pointee else { return cmhd_no() }
        let pending = Unmanaged<Pending>.fromOpaque(raw).takeUnretainedValue()
        if !pending.sawFirstCall {
            pending.sawFirstCall = true
            pending.method = method.map { String(cString: $0) } ?? ""
            return cmhd_yes()
        }
        if let uploadSize, uploadSize.pointee > 0 {
            if pending.body.count + uploadSize.pointee > daemon.settings.maximumBodyBytes {
                pending.bodyTooLarge = true
            } else if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
            uploadSize.pointee = 0
            return cmhd_yes()
        }
        let answered: (response: HTTPResponse, route: String)
        if let ready = pending.ready.answer.withLock({ $0.take() }) {
            answered = ready
            daemon.suspended.subtract(1, ordering: .acquiringAndReleasing)
        } else {
            switch daemon.answer(pending, connection: connection) {
            case .now(let response, let route): answered = (response, route)
            case .suspended: return cmhd_yes()
            }
        }
        let (response, route) = answered
        pending.status = response.status
        pending.bytes = pending.method == "HEAD" ? 0 : response.body.count
        pending.stream = response.stream
        pending.route = route
        return daemon.send(response, on: connection)
    }

    private static let finished: MHD_RequestCompletedCallback = { cls, _, state, termination in
        guard let state, let raw = state.pointee else { return }
        let pending = Unmanaged<Pending>.fromOpaque(raw).takeRetainedValue()
        state.pointee = nil
        guard let daemon = daemon(cls) else { return }
        daemon.inFlight.subtract(1, ordering: .releasing)
        daemon.completed(
            Exchange(
                method: pending.method, target: pending.target, status: pending.status,
                bytes: pending.stream?.sent ?? pending.bytes,
                duration: ContinuousClock.now - pending.started, route: pending.route,
                ending: cmhd_termination(termination).map { String(cString: $0) }))
    }

    /// Counts connections; logs when the limit is reached (new connections then wait in the
    /// kernel's listen queue, unanswered) and when there is room again.
    private static let connections: MHD_NotifyConnectionCallback = { cls, _, _, code in
        guard let daemon = daemon(cls) else { return }
        if cmhd_connection_started(code) != 0 {
            let open = daemon.openConnections.add(1, ordering: .relaxed).newValue
            if open >= daemon.connectionLimit && !daemon.atLimit.exchange(true, ordering: .relaxed) {
                daemon.log(
                    "the connection limit is reached: \(open) connections open; new ones wait in the listen queue until one closes"
                )
            }
        } else {
            let open = daemon.openConnections.subtract(1, ordering: .relaxed).newValue
            if open < daemon.connectionLimit * 9 / 10 && daemon.atLimit.exchange(false, ordering: .relaxed) {
                daemon.log("below the connection limit again: \(open) connections open")
            }
        }
    }

    /// How a request is answered: now, or later by another thread (its connection suspended).
    private enum Answering {
        case now(HTTPResponse, String)
        case suspended
    }

    private func answer(_ pending: Pending, connection: OpaquePointer) -> Answering {
        let (response, route) = request(pending, connection: connection)
        guard case .some(let request) = response else { return .now(route.response!, route.name) }
        let (heavy, heavyRoute) = weigh(request)
        guard heavy else {
            let (response, route) = handler(request)
            return .now(response, route)
        }
        // A slot for it, or a 503 at once: the work in flight is bounded, whatever the load.
        let isDraining = draining.load(ordering: .sequentiallyConsistent)
        if isDraining || heavyInFlight.add(1, ordering: .acquiringAndReleasing).newValue > settings.maximumHeavy {
            if !isDraining { heavyInFlight.subtract(1, ordering: .relaxed) }
            let words =
                "the server is answering \(settings.maximumHeavy) ranges already, as many as it answers at once; try again in a second"
            var busy = refuse(request, words) ?? ServiceError.response(status: 503, words, code: "busy")
            busy.headers.append(("Retry-After", "1"))
            return .now(busy, heavyRoute)
        }
        suspended.add(1, ordering: .acquiringAndReleasing)
        api.pointee.suspend_connection(connection)
        let connectionAddress = UInt(bitPattern: connection)
        let ready = pending.ready
        heavyQueue.async { [self] in
            let answered = handler(request)
            ready.answer.withLock { $0 = answered }
            heavyInFlight.subtract(1, ordering: .acquiringAndReleasing)
            stateLock.withLock { _ in
                if !stopping { api.pointee.resume_connection(OpaquePointer(bitPattern: connectionAddress)) }
            }
        }
        return .suspended
    }

    /// The request `pending` gathered, or (when it cannot be read) the refusal to send.
    private func request(
        _ pending: Pending, connection: OpaquePointer
    ) -> (
        HTTPRequest?, (response: HTTPResponse?, name: String)
    ) {
        switch readRequest(pending, connection: connection) {
        case .success(let request): return (request, (nil, ""))
        case .failure(let refusal): return (nil, (refusal.response, refusal.route))
        }
    }

    /// A request that cannot be read, and its answer.
    private struct Refusal: Error {
        let response: HTTPResponse
        let route: String
    }

    private func readRequest(_ pending: Pending, connection: OpaquePointer) -> Result<HTTPRequest, Refusal> {
        if pending.target.utf8.count > settings.maximumTargetBytes {
            return .failure(
                Refusal(
                    response: ServiceError.response(
                        status: 414,
                        "the request target is \(pending.target.utf8.count) bytes; at most \(settings.maximumTargetBytes) are read"
                    ), route: "limit"))
        }
        if pending.bodyTooLarge {
            return .failure(
                Refusal(
                    response: ServiceError.response(
                        status: 413, "the request body is larger than \(settings.maximumBodyBytes) bytes, the most read"
                    ),
                    route: "limit"))
        }
        var headers = HeaderCollector()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = api.pointee.get_connection_values(
                connection, cmhd_header_kind(),
                { cls, _, key, value in
                    guard let cls, let key else { return cmhd_yes() }
                    let collector = cls.assumingMemoryBound(to: HeaderCollector.self)
                    collector.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                    return cmhd_yes()
                }, pointer)
        }
        do {
            return .success(
                try HTTPRequest(
                    method: pending.method, target: pending.target, headers: headers.fields, body: pending.body))
        } catch let error as HTTPRequestError {
            return .failure(Refusal(response: ServiceError.response(status: 400, error.message), route: "bad-request"))
        } catch {
            return .failure(Refusal(response: ServiceError.response(status: 400, "\(error)"), route: "bad-request"))
        }
    }

    /// At most `wanted` connections, as many as the process's descriptors allow: their soft
    /// limit raised to the hard one (1,024 by default is too few for a server), 64 kept spare
    /// for the store's files and the pipes of streamed answers.
    private static func affordableConnections(_ wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return min(wanted, 960) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return max(1, min(wanted, Int(clamping: limit.rlim_cur) - 64))
    }

    private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        var body = response.body
        let made: OpaquePointer?
        if let stream = response.stream {
            // Size unknown: chunked. The response holds the stream until libmicrohttpd frees it.
            made = api.pointee.create_response_from_callback(
                UInt64.max, 16_384,
                { cls, _, buffer, count in
                    guard let cls, let buffer else { return -2 }
                    return Unmanaged<HTTPBodyStream>.fromOpaque(cls).takeUnretainedValue().read(
                        into: buffer, count: count)
                }, Unmanaged.passRetained(stream).toOpaque(),
                { cls in
                    if let cls { Unmanaged<HTTPBodyStream>.fromOpaque(cls).release() }
                })
        } else {
            made = body.withUnsafeMutableBytes { bytes in
                api.pointee.create_response_from_buffer(bytes.count, bytes.baseAddress, cmhd_must_copy())
            }
        }
        guard let made else { return cmhd_no() }
        defer { api.pointee.destroy_response(made) }
        for (name, value) in response.headers {
            _ = api.pointee.add_response_header(made, name, value)
        }
        return api.pointee.queue_response(connection, UInt32(response.status), made)
    }
}

/// The request's headers, gathered by libmicrohttpd's iterator.
private struct HeaderCollector {
    var fields: [String: String] = [:]

    mutating func add(_ name: String, _ value: String) {
        let key = name.lowercased()
        if let earlier = fields[key] { fields[key] = earlier + ", " + value } else { fields[key] = value }
    }
}
