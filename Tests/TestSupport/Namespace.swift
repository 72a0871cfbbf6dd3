import Foundation

/// Shell scripts run in user and mount namespaces of their own (`unshare -Urm`), where they may
/// mount file systems no one else sees: a small tmpfs that fills up, or one remounted read-only.
/// Needs no privileges beyond the kernel's unprivileged user namespaces (root works too).
public enum Namespace {
    /// Runs `script` with `/bin/sh -eu`, with `environment` added; standard error is merged
    /// into standard output.
    public static func run(_ script: String, environment: [String: String] = [:]) throws -> CommandRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--user", "--map-root-user", "--mount", "/bin/sh", "-eu", "-c", "exec 2>&1\n" + script]
        var merged = ProcessInfo.processInfo.environment
        merged["ECBRATES_STORE"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandRun(status: process.terminationStatus, out: String(decoding: data, as: UTF8.self), err: "")
    }
}
