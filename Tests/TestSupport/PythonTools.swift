import Foundation

/// The Python interpreters the tests run scripts with.
public enum PythonTools {
    /// Debian's python3: the standard library only (expat, decimal, fractions, http.client).
    public static let system = URL(fileURLWithPath: "/usr/bin/python3")

    /// The virtual environment `scripts/prerequisites` makes in `.build/pyenv`, with the PyPI
    /// packages the tests drive the server with (the MCP SDK, a Frankfurter client).
    public static let withPackages = FixturePaths.root.appendingPathComponent(".build/pyenv/bin/python3")

    /// Why the packaged interpreter cannot be used, or nil when it can.
    public static var missingPackages: String? {
        FileManager.default.isExecutableFile(atPath: withPackages.path)
            ? nil
            : "\(withPackages.path) is missing: run scripts/prerequisites (it installs the MCP SDK and frankfurter)"
    }

    /// `Tests/ECBRatesTests/Server/<name>`.
    public static func serverScript(_ name: String) -> String {
        FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/Server/\(name)").path
    }
}

extension PythonTools {
    /// Runs `script` with the system's `python3`, `input` on its standard input, and gives its
    /// standard output (its standard error goes to the test's). Throws when it exits non-zero.
    public static func run(_ script: String, input: Data) throws -> Data {
        let process = Process()
        process.executableURL = system
        process.arguments = ["-c", script]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Written on a thread of its own: a large input would fill the pipe while python
        // fills its output.
        let handle = stdin.fileHandleForWriting
        let writer = Thread {
            handle.write(input)
            try? handle.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "python3 exited \(process.terminationStatus)"])
        }
        return output
    }
}
