internal import CCurl
import Foundation

/// One HTTP(S) GET through the system's libcurl, its body written to a file descriptor as it
/// arrives: the transport under ``FeedFetcher``.
///
/// libcurl (a C library, like libsqlite3 and libxml2) is initialised only when a URL is first
/// fetched, so that the query commands never pay for networking code at start-up. It waits in
/// `poll`, using no CPU while a server is silent, and verifies TLS certificates against the
/// system's CA store (there is no option to turn that off).
///
/// Blocking: call it on a thread of its own.
final class CurlTransfer {
    /// The limits of one transfer.
    struct Limits {
        /// Seconds to wait for the connection (TCP and TLS) to be made.
        var connectTimeout: Double
        /// Seconds without a byte from the server, once connected, before giving up (checked
        /// about once a second).
        var idleTimeout: Double
        /// Seconds a whole transfer may take, however it trickles.
        var totalTimeout: Double
        /// The most bytes a body may have (after content decoding).
        var maximumBytes: Int
    }

    /// What the server answered (the last answer, after redirects).
    struct Response {
        /// The HTTP status.
        var status: Int
        /// The reason phrase of the status line (empty for HTTP/2).
        var reason: String
        /// The headers, by lower-cased name.
        var headers: [String: String]
        /// The body's size, in bytes.
        var byteCount: Int
    }

    /// Why a transfer failed.
    enum Failure: Error {
        /// libcurl's error: its code, its words for it, whether the connection was made, and
        /// the system's error (`errno`, 0 when none).
        case curl(code: Int, message: String, connected: Bool, osErrno: Int)
        /// The body passed ``Limits/maximumBytes``.
        case tooLarge(limit: Int)
        /// The body could not be written to `file` (`errno`).
        case write(file: URL, errno: Int32)
        /// A connected server sent nothing for ``Limits/idleTimeout`` seconds.
        case idle
        /// The transfer took longer than ``Limits/totalTimeout``.
        case tooSlow
        /// `shouldStop` asked for the transfer to end.
        case stopped
    }

    /// libcurl, loaded and set up once per process, on first use; or why it could not be.
    private static let library: Result<CurlLibrary, Failure> = {
        var api = ccurl_api()
        if let error = ccurl_load(&api) {
            return .failure(
                .curl(
                    code: -1, message: "libcurl could not be loaded (\(String(cString: error))); install libcurl4",
                    connected: false, osErrno: 0))
        }
        // CURL_GLOBAL_ALL (a macro Swift does not import): SSL and, on Windows, sockets.
        _ = ccurl_global_init(&api, 3)
        return .success(CurlLibrary(api: api))
    }()

    /// The state the callbacks reach through their context pointer.
    fileprivate final class State {
        /// The file the body goes to, made when the first byte of a successful answer comes
        /// (so that a failed request leaves no file behind).
        let file: URL
        var fd: Int32 = -1
        let maximumBytes: Int
        var written = 0
        var tooLarge = false
        var writeErrno: Int32?
        var status = 0
        var reason = ""
        var headers: [String: String] = [:]
        // Progress: when bytes last came (from the connection on), and why the transfer was ended.
        var api = ccurl_api()
        var handle: UnsafeMutableRawPointer?
        var idleTimeout: Duration = .seconds(20)
        var shouldStop: (@Sendable () -> Bool)?
        var lastByte: ContinuousClock.Instant?
        var lastCount: Int64 = -1
        var idleExpired = false
        var stopRequested = false

        init(file: URL, maximumBytes: Int) {
            self.file = file
            self.maximumBytes = maximumBytes
        }

        /// Opens the file for the body; false (with `writeErrno`) when it cannot be made.
        func open() -> Bool {
            if fd >= 0 { return true }
            fd = Foundation.open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            if fd < 0 { writeErrno = errno }
            return fd >= 0
        }

        deinit { if fd >= 0 { close(fd) } }
    }

    /// Fetches `url` with the extra request `headers` (`Name: value`), writing the body of a
    /// successful answer to `file` (made only then; the caller removes it). On a failure, the
    /// file may hold part of a body: remove it.
    static func get(
        _ url: URL, headers: [String], userAgent: String, limits: Limits, into file: URL,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) throws -> Response {
        let library = try Self.library.get()
        var api = library.api
        guard let handle = ccurl_easy_init(&api) else {
            throw Failure.curl(code: -1, message: "libcurl could not start a transfer", connected: false, osErrno: 0)
        }
        defer { ccurl_easy_cleanup(&api, handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = ccurl_slist_append(&api, list, header) }
        defer { ccurl_slist_free_all(&api, list) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        let state = State(file: file, maximumBytes: limits.maximumBytes)
        state.api = api
        state.handle = handle
        state.idleTimeout = .milliseconds(Int(max(0.001, limits.idleTimeout) * 1000))
        state.shouldStop = shouldStop
        let context = Unmanaged.passUnretained(state).toOpaque()
        ccurl_setopt_string(&api, handle, CURLOPT_URL, url.absoluteString)
        ccurl_setopt_string(&api, handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects: a few, and only to https (never from https down to http).
        ccurl_setopt_long(&api, handle, CURLOPT_FOLLOWLOCATION, 1)
        ccurl_setopt_long(&api, handle, CURLOPT_MAXREDIRS, 5)
        ccurl_setopt_string(&api, handle, CURLOPT_REDIR_PROTOCOLS_STR, "https")
        ccurl_setopt_long(&api, handle, CURLOPT_SSL_VERIFYPEER, 1)
        ccurl_setopt_long(&api, handle, CURLOPT_SSL_VERIFYHOST, 2)
        ccurl_setopt_long(&api, handle, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(&api, handle, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, limits.connectTimeout * 1000)))
        ccurl_setopt_long(&api, handle, CURLOPT_TIMEOUT_MS, Int(max(1, limits.totalTimeout * 1000)))
        // The idle timeout and a stop are checked by the progress callback, which libcurl calls
        // often while bytes come and about once a second while none do.
        ccurl_setopt_long(&api, handle, CURLOPT_NOPROGRESS, 0)
        ccurl_setopt_progress_callback(
            &api, handle,
            { context, _, downloaded, _, _ in
                guard let context else { return 0 }
                return Unmanaged<State>.fromOpaque(context).takeUnretainedValue().progress(
                    downloaded: Int64(downloaded)) ? 0 : 1
            })
        ccurl_setopt_pointer(&api, handle, CURLOPT_XFERINFODATA, context)
        ccurl_setopt_offset(&api, handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumBytes))
        ccurl_setopt_string(&api, handle, CURLOPT_ACCEPT_ENCODING, "")
        ccurl_setopt_string(&api, handle, CURLOPT_USERAGENT, userAgent)
        ccurl_setopt_list(&api, handle, CURLOPT_HTTPHEADER, list)
        ccurl_setopt_pointer(&api, handle, CURLOPT_ERRORBUFFER, errorBuffer)
        ccurl_setopt_data_callback(
            &api, handle, CURLOPT_WRITEFUNCTION,
            { data, size, count, context in
                guard let data, let context else { return 0 }
                let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
                return state.write(data, size * count)
            })
        ccurl_setopt_pointer(&api, handle, CURLOPT_WRITEDATA, context)
        ccurl_setopt_data_callback(
            &api, handle, CURLOPT_HEADERFUNCTION,
            { data, size, count, context in
                guard let data, let context else { return 0 }
                let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
                state.header(UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            })
        ccurl_setopt_pointer(&api, handle, CURLOPT_HEADERDATA, context)

        let code = ccurl_easy_perform(&api, handle)
        if state.stopRequested { throw Failure.stopped }
        if state.idleExpired { throw Failure.idle }
        if code == CURLE_OPERATION_TIMEDOUT && state.lastByte != nil { throw Failure.tooSlow }
        if state.tooLarge { throw Failure.tooLarge(limit: limits.maximumBytes) }
        if let errno = state.writeErrno { throw Failure.write(file: file, errno: errno) }
        guard code == CURLE_OK else {
            var connected: Double = 0
            ccurl_getinfo_double(&api, handle, CURLINFO_CONNECT_TIME, &connected)
            var osErrno = 0
            ccurl_getinfo_long(&api, handle, CURLINFO_OS_ERRNO, &osErrno)
            let words = String(cString: errorBuffer)
            let message =
                words.isEmpty
                ? ccurl_easy_strerror(&api, code).map { String(cString: $0) } ?? "error \(code.rawValue)" : words
            if code == CURLE_FILESIZE_EXCEEDED { throw Failure.tooLarge(limit: limits.maximumBytes) }
            throw Failure.curl(code: Int(code.rawValue), message: message, connected: connected > 0, osErrno: osErrno)
        }
        var status = 0
        ccurl_getinfo_long(&api, handle, CURLINFO_RESPONSE_CODE, &status)
        // An empty body of a successful answer is still a file (which the reader refuses).
        if (200..<300).contains(status) && !state.open() {
            throw Failure.write(file: file, errno: state.writeErrno ?? EIO)
        }
        return Response(status: status, reason: state.reason, headers: state.headers, byteCount: state.written)
    }
}

/// The loaded libcurl's functions.
///
/// `@unchecked Sendable`: the table is written once, before the value is shared, and only
/// read after (libcurl's easy functions are safe to call from any thread, one handle each).
final class CurlLibrary: @unchecked Sendable {
    let api: ccurl_api
    init(api: ccurl_api) { self.api = api }
}

extension CurlTransfer.State {
    /// Writes a piece of the body; a count other than `count` tells libcurl to stop.
    func write(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        guard (200..<300).contains(status) else { return count }  // an error page's body is not kept
        guard written + count <= maximumBytes else {
            tooLarge = true
            return 0
        }
        guard open() else { return 0 }
        var offset = 0
        while offset < count {
            let wrote = Foundation.write(fd, data + offset, count - offset)
            if wrote < 0 {
                if errno == EINTR { continue }
                writeErrno = errno
                return 0
            }
            offset += wrote
        }
        written += count
        return count
    }

    /// Whether the transfer may go on: false once a stop is asked for, or once a connected
    /// server has sent nothing for the idle timeout.
    func progress(downloaded: Int64) -> Bool {
        if shouldStop?() == true {
            stopRequested = true
            return false
        }
        let now = ContinuousClock.now
        if lastByte == nil {
            var connected: Double = 0
            ccurl_getinfo_double(&api, handle, CURLINFO_CONNECT_TIME, &connected)
            guard connected > 0 else { return true }  // the connect timeout covers this part
            lastByte = now
        }
        if downloaded != lastCount {
            lastCount = downloaded
            lastByte = now
        } else if let lastByte, now - lastByte > idleTimeout {
            idleExpired = true
            return false
        }
        return true
    }

    /// One header line of an answer; a status line starts a new answer (after a redirect).
    func header(_ line: UnsafeRawBufferPointer) {
        lastByte = ContinuousClock.now
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ", maxSplits: 2).map(String.init)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            reason = parts.count > 2 ? parts[2] : ""
            headers = [:]
            written = 0
        } else if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].lowercased()
            headers[name] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
}
