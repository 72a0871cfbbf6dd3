import Foundation
import TestSupport

/// `ecbrates serve` running as a child process on a copy of the bundled history, on a free
/// loopback port: the tests talk to it over real sockets.
final class ServedStore {
    let directory = TemporaryDirectory()
    let store: URL
    let process: SpawnedProcess.Running
    let port: Int
    private let started = ContinuousClock.now

    /// Starts the server with `arguments` added; waits until it says where it listens.
    init(
        _ arguments: [String] = [], store: URL? = nil, environment: [String: String] = [:],
        executable: URL = CommandRun.executable
    ) async throws {
        if let store {
            self.store = store
        } else {
            self.store = try await PreparedStore.copy(into: directory)
        }
        process = try SpawnedProcess.Running(
            executable,
            ["serve", "--listen", "127.0.0.1:0", "--store", self.store.path] + arguments,
            environment: ["ECBRATES_NOW": "2026-10-01T12:00:00Z"].merging(environment) { $1 })
        var port: Int?
        let child = process
        Waiting.until(timeout: .seconds(30)) {
            if let match = child.errorSoFar.firstMatch(of: /on https?:\/\/127\.0\.0\.1:(\d+)\//) {
                port = Int(match.1)
            }
            return port != nil || child.hasEnded
        }
        guard let port else {
            process.kill()
            throw ServeTestError(message: "the server did not start: \(process.errorSoFar)")
        }
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops the server with `signal` and returns how it ended: it has 30 s from now.
    /// (`wait(timeout:)` counts from the process's start; a server that ran a long test under
    /// a loaded suite was killed at once, and looked as if it had ignored the signal.)
    func stop(_ signal: Int32 = SIGTERM) throws -> SpawnedProcess {
        process.kill(signal)
        return try process.wait(timeout: (ContinuousClock.now - started).seconds + 30)
    }

    deinit { if !process.hasEnded { process.kill() } }
}

struct ServeTestError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
