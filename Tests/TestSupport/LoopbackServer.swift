import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test server of `feed_server.py`, started on a free loopback port and stopped when the
/// value goes.
public final class LoopbackServer: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is set once in init and never changed.
    let process = Process()
    public let port: Int

    /// The scheme of its URLs.
    public let scheme: String

    /// `feed_server.py` serving `directory` over http.
    public convenience init(serving directory: URL) throws {
        try self.init(script: "feed_server.py", scheme: "http", directory: directory)
    }

    /// `tls_server.py`: `directory` over https, with a self-signed certificate (which a client
    /// verifying certificates must refuse).
    public convenience init(tlsServing directory: URL) throws {
        try self.init(script: "tls_server.py", scheme: "https", directory: directory)
    }

    private init(script name: String, scheme: String, directory: URL) throws {
        self.scheme = scheme
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(name)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory.path]
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the test server did not start: \(line)"])
        }
        self.port = port
    }

    public func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")! }

    /// How many requests `path` has had.
    public func requestCount(_ path: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url("/requests" + path))
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    deinit {
        // SIGKILL: the test runner's threads block SIGTERM, and a child inherits that mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
