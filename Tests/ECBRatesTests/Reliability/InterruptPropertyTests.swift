import Foundation
import TestSupport
import Testing

/// Interrupts at any moment: `scripts/interrupt-check` sends SIGINT or SIGTERM once at a seeded
/// random moment of a full-history import in a child process (at start-up, while it stores,
/// at its end: the last commit, the index build, the import log), and checks each run against
/// the store itself with Python's sqlite3 and expat: the process ends with 128 + the signal
/// after saying exactly what it stored (or with 0 when it was done first), the import log
/// records the run as ended with the store's counts, and the store holds whole days only.
/// Signals that come before the process has its handler (while the kernel and the loader are
/// still loading it) are counted apart: they end it by the default action, with nothing stored.
///
/// `ECBRATES_SEED` and `ECBRATES_INTERRUPT_CASES` change the run (a failing case
/// prints the command that rebuilds it alone); long runs: `scripts/interrupt-check --cases 400`.
@Suite struct InterruptPropertyTests {
    @Test func everyInterruptSaysWhatWasStoredAndRecordsIt() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["ECBRATES_SEED"] ?? "20261125"
        let cases = environment["ECBRATES_INTERRUPT_CASES"] ?? "80"
        let script = FixturePaths.root.appendingPathComponent("scripts/interrupt-check").path
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [script, "--cases", cases, "--seed", seed, "--binary", CommandRun.executable.path],
            timeout: 900)
        #expect(
            run.status == 0,
            "scripts/interrupt-check failed (seed \(seed)):\n\(run.out.suffix(6_000))\n\(run.err.suffix(2_000))")
        #expect(
            run.out.contains("interrupt-check: \(cases) cases (seed \(seed)), 0 failures"), "\(run.out.suffix(2_000))")
    }
}
