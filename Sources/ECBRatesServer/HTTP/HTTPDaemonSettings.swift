/// How an ``HTTPDaemon`` listens, and the limits it keeps.
package struct HTTPDaemonSettings: Sendable {
    /// The address to bind (`127.0.0.1`, `::1`, `0.0.0.0`, `::`).
    package var host: String = "127.0.0.1"
    /// The port (0: any free port; ``HTTPDaemon/port`` says which).
    package var port: UInt16 = 8080
    /// A socket already bound and listening, passed by systemd (`LISTEN_FDS`): used instead of
    /// `host` and `port`.
    package var listeningSocket: Int32?
    /// Threads answering requests.
    package var threads: Int = 4
    /// Connections open at once; more are refused at accept. Bounded by the process's file
    /// descriptors (the daemon raises their soft limit to the hard one, and keeps 64 spare).
    package var connectionLimit: Int = 10_000
    /// Seconds a connection may send nothing before it is closed (slow clients, slowloris).
    package var idleTimeoutSeconds: Int = 15
    /// Bytes for a request's line and headers together (libmicrohttpd answers 431 beyond).
    package var headerBytes: Int = 32 * 1_024
    /// The longest request target (path and query) answered; longer ones get 414.
    package var maximumTargetBytes: Int = 4_096
    /// The largest request body (a batch conversion's CSV); larger ones get 413.
    package var maximumBodyBytes: Int = 16 * 1_024 * 1_024

    /// Heavy requests (the handler's `isHeavy` says which: ranges, not yet answered) answered at
    /// once, each on a thread of its own while its connection waits suspended, so that the
    /// threads serving connections stay free for `/healthz` and cached answers. Past it, a heavy
    /// request is answered 503 with `Retry-After` at once. Default: 2.
    package var maximumHeavy: Int = 2
    /// How long a stop lets the requests in flight finish before it closes them, in seconds.
    package var stopGraceSeconds: Double = 4

    /// TLS: the private key and the certificate chain (PEM), or nil for plain HTTP.
    package var tls: (key: String, certificate: String)?

    /// The default settings: loopback, port 8080.
    package init() {}
}
