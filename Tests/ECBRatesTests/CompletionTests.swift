import Foundation
import TestSupport
import Testing

/// The bash completion script, loaded in a real bash and asked to complete real prefixes:
/// commands, options, option values, files, and the currency codes the store holds (after a
/// comma too).
struct CompletionTests {
    @Test func bashCompletesCommandsOptionsValuesFilesAndTheStoresCurrencies() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let script = dir.file("ecbrates.bash")
        let made = try CommandRun.process(["completions", "bash"])
        #expect(made.status == 0, "\(made)")
        try made.out.write(to: script, atomically: true, encoding: .utf8)
        let driver = #"""
            source "$SCRIPT"
            ask() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _ecbrates
                printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '; echo; }
            ask ecbrates ra
            ask ecbrates rate --fo
            ask ecbrates rate --format j
            ask ecbrates rate US
            ask ecbrates rate USD,JP
            ask ecbrates series USD --group q
            ask ecbrates export --layout w
            ask ecbrates convert 100 USD EUR --input Fixtures/eurofxref-d
            ask ecbrates latest --base CH
            """#
        let binaries = CommandRun.executable.deletingLastPathComponent().path
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "cd \"$ROOT\" && " + driver],
            environment: [
                "SCRIPT": script.path, "ROOT": FixturePaths.root.path, "PATH": "\(binaries):/usr/bin:/bin",
                "ECBRATES_STORE": store.path, "HOME": dir.url.path,
            ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
                "rate ", "--format ", "json ", "USD ", "USD,JPY ", "quarter ", "wide ",
                "Fixtures/eurofxref-daily.xml ", "CHF ", "",
            ], "\(run.out)")
    }
}
