import Foundation

/// What a run of `ecbrates` printed, and how it exited.
public struct CommandRun: Sendable, CustomStringConvertible {
    public let status: Int32
    public let out: String
    public let err: String

    public init(status: Int32, out: String, err: String) {
        self.status = status
        self.out = out
        self.err = err
    }

    public var description: String { "exit \(status)\nstdout: \(out)\nstderr: \(err)" }

    /// The built `ecbrates` executable, beside the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "ecbrates")
    }

    /// Runs the `ecbrates` executable as a process, with `input` on standard input.
    public static func process(
        _ arguments: [String], environment: [String: String] = [:], input: Data? = nil,
        directory: URL = FixturePaths.root
    ) throws -> CommandRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment
        merged["ECBRATES_STORE"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try? stdin.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandRun(
            status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData, as: UTF8.self))
    }
}
