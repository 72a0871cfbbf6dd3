/// How an ``HTTPDaemon`` listens, and the limits it keeps.
public struct HTTPDaemonSettings: Sendable {
    /// The address to bind (`127.0.0.1`, `::1`, `0.0.0.0`, `::`).
    public var host: String = "127.0.0.1"
    /// The port (0: any free port; ``HTTPDaemon/port`` says which).
    public var port: UInt16 = 8080
    /// A socket already bound and listening, passed by systemd (`LISTEN_FDS`): used instead of
    /// `host` and `port`.
    public var listeningSocket: Int32?
    /// Threads answering requests.
    public var threads: Int = 4
    /// Connections open at once; more are refused at accept. Bounded by the process's file
    /// descriptors (the daemon raises their soft limit to the hard one, and keeps 64 spare).
    public var connectionLimit: Int = 10_000
    /// Seconds a connection may send nothing before it is closed (slow clients, slowloris).
    public var idleTimeoutSeconds: Int = 15
    /// Bytes for a request's line and headers together (libmicrohttpd answers 431 beyond).
    public var headerBytes: Int = 32 * 1_024
    /// The longest request target (path and query) answered; longer ones get 414.
    public var maximumTargetBytes: Int = 4_096
    /// The largest request body (a batch conversion's CSV); larger ones get 413.
    public var maximumBodyBytes: Int = 16 * 1_024 * 1_024

    /// The default settings: loopback, port 8080.
    public init() {}
}
