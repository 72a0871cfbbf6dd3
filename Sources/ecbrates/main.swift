import CMalloc
import ECBRatesCLI
import Foundation

// Blocks of 128 KiB and more (an import's chunks of rates) are always mapped and unmapped, never
// kept in malloc's arenas: glibc otherwise raises this threshold as such blocks are freed, the
// arenas fragment, and a long import's memory creeps up (scripts/bench, "Import peak RSS").
_ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)

// The executable is only this: everything else is in ECBRatesCLI, where tests can reach it.
CLI.start(Array(CommandLine.arguments.dropFirst()))
