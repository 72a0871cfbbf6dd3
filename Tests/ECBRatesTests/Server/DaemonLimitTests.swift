import ECBRatesServer
import Foundation
import Synchronization
import TestSupport
import Testing

/// The daemon's limits, in process: a connection past the connection limit waits unanswered in
/// the listen queue, and the log says the limit is reached (such a connection has no request to
/// answer with a status, so the log is where an operator sees it); a request left unfinished is
/// closed at the idle timeout, and its access-log line says so.
struct DaemonLimitTests {
    @Test func aConnectionPastTheLimitWaitsAndTheLimitIsLogged() throws {
        var settings = HTTPDaemonSettings()
        settings.port = 0
        settings.threads = 1
        settings.connectionLimit = 4
        let lines = Mutex<[String]>([])
        let daemon = try HTTPDaemon(
            settings: settings,
            handler: { _ in (HTTPResponse(status: 200, contentType: "text/plain", text: "ok\n"), "test") },
            completed: { _ in }, log: { line in lines.withLock { $0.append(line) } })
        defer { daemon.stop() }
        let port = Int(daemon.port)
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<4 { held.append(try RawHTTP.connect(port)) }
        // The fifth: queued by the kernel, not taken by the daemon: no answer within a second.
        let waiting = try RawHTTP.send(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port, timeout: 1)
        #expect(waiting.status == 0 && waiting.body.isEmpty, "\(waiting)")
        let logged = Waiting.until(timeout: .seconds(10)) {
            lines.withLock { $0.contains { $0.hasPrefix("the connection limit is reached: 4 connections open") } }
        }
        #expect(logged, "\(lines.withLock { $0 })")
        // Once the idle ones go, it answers again.
        for fd in held { close(fd) }
        held = []
        // Short attempts, many of them: one attempt that waits in the kernel's queue while the
        // daemon frees its slots must not use the whole budget (a busy machine is slow to).
        let answered = Waiting.until(timeout: .seconds(30)) {
            let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            return (try? RawHTTP.send(request, port: port, timeout: 2).status) == 200
        }
        #expect(answered)
    }

    @Test func aRequestLeftUnfinishedIsClosedAtTheIdleTimeoutAndLogged() throws {
        var settings = HTTPDaemonSettings()
        settings.port = 0
        settings.threads = 1
        settings.idleTimeoutSeconds = 1
        let exchanges = Mutex<[HTTPDaemon.Exchange]>([])
        let daemon = try HTTPDaemon(
            settings: settings,
            handler: { _ in (HTTPResponse(status: 200, contentType: "text/plain", text: "ok\n"), "test") },
            completed: { exchange in exchanges.withLock { $0.append(exchange) } })
        defer { daemon.stop() }
        // Slowloris: a request line and half a header, then nothing.
        let fd = try RawHTTP.connect(Int(daemon.port))
        defer { close(fd) }
        let start = "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        _ = start.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var byte: UInt8 = 0
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let began = ContinuousClock.now
        #expect(recv(fd, &byte, 1, 0) == 0, "the server closes the connection")
        #expect(ContinuousClock.now - began < .seconds(5))
        let logged = Waiting.until(timeout: .seconds(5)) {
            exchanges.withLock { $0.contains { $0.target == "/slow" && $0.ending == "closed: idle past the timeout" } }
        }
        #expect(logged, "\(exchanges.withLock { $0 })")
    }
}
