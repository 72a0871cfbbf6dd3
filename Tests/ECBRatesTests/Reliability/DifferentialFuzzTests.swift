import Foundation
import TestSupport
import Testing

/// The import policy, checked against an independent reader: `scripts/fuzz` breaks the bundled
/// files at random positions (byte flips, truncations, renamed and unknown elements, unknown
/// attributes, duplicated and deleted lines, bad and overlong rates anywhere in a day, other
/// encodings), imports each into a copy of a store that already holds some of the days (some
/// with other values, so that corrections happen) with random `--workers` and `--chunk-days`,
/// and judges every run with Python's expat and decimal (`scripts/ecb_oracle.py`): a success
/// leaves the store equal to the file; a failure leaves exactly the whole days that end before
/// the error, touching nothing else; the report names them; `validate` agrees.
///
/// `ECBRATES_SEED` and `ECBRATES_FUZZ_CASES` change the run (a failing case prints the
/// command that rebuilds it alone); long runs: `scripts/fuzz --cases 2000 --seed S`.
@Suite struct DifferentialFuzzTests {
    @Test func everyMutantImportStoresExactlyWhatTheOracleSays() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["ECBRATES_SEED"] ?? "20261123"
        let cases = environment["ECBRATES_FUZZ_CASES"] ?? "250"
        let script = FixturePaths.root.appendingPathComponent("scripts/fuzz").path
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", script, "--cases", cases, "--seed", seed, "--jobs", "2",
                "--binary", CommandRun.executable.path,
            ],
            timeout: 600)
        #expect(
            run.status == 0, "scripts/fuzz failed (seed \(seed)):\n\(run.out.suffix(6_000))\n\(run.err.suffix(2_000))")
        #expect(
            run.out.contains("fuzz: \(cases) cases (seed \(seed)): \(cases) imports, 0 failures"),
            "\(run.out.suffix(2_000))")
    }
}
