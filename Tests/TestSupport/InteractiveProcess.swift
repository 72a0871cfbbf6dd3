import Foundation

/// A process driven line by line: write a line to its standard input, read lines from its
/// standard output as they come.
///
/// `@unchecked Sendable`: `buffer` and `lines` are touched only under `lock`.
public final class InteractiveProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private let lock = NSCondition()
    private var buffer = Data()
    private var lines: [String] = []
    private var ended = false

    public init(_ executable: URL, arguments: [String], environment: [String: String] = [:], directory: URL) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            if data.isEmpty { self.ended = true }
            self.buffer.append(data)
            while let newline = self.buffer.firstIndex(of: 0x0A) {
                self.lines.append(String(decoding: self.buffer[self.buffer.startIndex..<newline], as: UTF8.self))
                self.buffer.removeSubrange(self.buffer.startIndex...newline)
            }
            self.lock.broadcast()
            self.lock.unlock()
        }
        try process.run()
    }

    /// The process's ID.
    public var pid: Int32 { process.processIdentifier }

    /// Sends the process SIGINT, as Ctrl-C at a terminal would.
    public func interrupt() {
        process.interrupt()
    }

    /// Writes `line` and a newline to the process.
    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next line of output, waiting up to `timeout` seconds; nil when none came.
    public func readLine(timeout: Double) -> String? {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while lines.isEmpty && !ended {
            if !lock.wait(until: deadline) { break }
        }
        return lines.isEmpty ? nil : lines.removeFirst()
    }

    /// Closes standard input and waits for the exit status.
    public func finish() -> (status: Int32, errors: String) {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        return (
            process.terminationStatus,
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }
}
