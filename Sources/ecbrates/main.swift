import CMalloc
import ECBRatesCLI
import Foundation

// Blocks of 128 KiB and more (an import's chunks of rates) are always mapped and unmapped, never
// kept in malloc's arenas: glibc otherwise raises this threshold as such blocks are freed, the
// arenas fragment, and a long import's memory creeps up (scripts/bench, "Import peak RSS").
_ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)

// The environment, read once from `environ`: `ProcessInfo.processInfo` would first set up the
// whole ProcessInfo object and build this dictionary at each call, about 0.4 ms of every start
// (scripts/bench, "Process start").
var environment: [String: String] = [:]
if var entry = Optional(environ) {
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "="), environment[String(text[..<equals])] == nil {
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        entry += 1
    }
}

// The executable is only this: everything else is in ECBRatesCLI, where tests can reach it.
CLI.start(Array(CommandLine.arguments.dropFirst()), environment: environment, console: .standard(environment: environment))
