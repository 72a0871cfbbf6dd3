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
            ask ecbrates completions z
            ask ecbrates man seri
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
                "Fixtures/eurofxref-daily.xml ", "CHF ", "zsh ", "series ", "",
            ], "\(run.out)")
    }

    /// The zsh script, loaded through compinit from a directory of `$fpath` in an interactive
    /// zsh at a pseudo-terminal, completes what a person types followed by Tab.
    @Test func zshCompletesCommandsOptionsValuesFilesAndTheStoresCurrencies() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let functions = dir.file("functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        let made = try CommandRun.process(["completions", "zsh"])
        #expect(made.status == 0, "\(made)")
        try made.out.write(to: functions.appendingPathComponent("_ecbrates"), atomically: true, encoding: .utf8)
        let prefixes = [
            "ecbrates ra", "ecbrates rate --fo", "ecbrates rate --format j", "ecbrates rate US", "ecbrates rate USD,JP",
            "ecbrates series USD --group q", "ecbrates export --layout w",
            "ecbrates convert 100 USD EUR --input Fixtures/eurofxref-d", "ecbrates latest --base CH",
            "ecbrates completions fi",
        ]
        let binaries = CommandRun.executable.deletingLastPathComponent().path
        let run = try SpawnedProcess.run(
            PythonTools.system,
            [
                FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/zsh_completion_check.py").path,
                functions.path,
            ]
                + prefixes,
            environment: [
                "PATH": "\(binaries):/usr/bin:/bin", "ECBRATES_STORE": store.path, "HOME": dir.url.path,
                "ROOT": FixturePaths.root.path,
            ], timeout: 120)
        #expect(run.status == 0, "\(run)")
        #expect(
            run.out.split(separator: "\n").map(String.init) == [
                "rate", "rate --format", "rate --format json", "rate USD", "rate USD,JPY", "series USD --group quarter",
                "export --layout wide", "convert 100 USD EUR --input Fixtures/eurofxref-daily.xml", "latest --base CHF",
                "completions fish",
            ], "\(run.out)\(run.err)")
    }

    /// The fish script, sourced in fish, completes real prefixes (`complete -C`, what fish's
    /// Tab asks), with each candidate's description from the declarations.
    @Test func fishCompletesCommandsOptionsValuesFilesAndTheStoresCurrencies() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let script = dir.file("ecbrates.fish")
        let made = try CommandRun.process(["completions", "fish"])
        #expect(made.status == 0, "\(made)")
        try made.out.write(to: script, atomically: true, encoding: .utf8)
        let driver = #"""
            source $argv[1]
            for prefix in "ecbrates ra" "ecbrates rate --fo" "ecbrates rate --format j" "ecbrates rate US" \
                    "ecbrates rate USD,JP" "ecbrates series USD --group q" "ecbrates export --layout w" \
                    "ecbrates convert 100 USD EUR --input Fixtures/eurofxref-d" "ecbrates latest --base CH"
                echo (complete -C "$prefix" | string join "|")
            end
            """#
        let binaries = CommandRun.executable.deletingLastPathComponent().path
        let run = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/fish"), ["-c", "cd $ROOT; " + driver, script.path],
            environment: [
                "ROOT": FixturePaths.root.path, "PATH": "\(binaries):/usr/bin:/bin", "ECBRATES_STORE": store.path,
                "HOME": dir.url.path,
            ], timeout: 120)
        #expect(run.status == 0, "\(run)")
        #expect(
            run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
                "rate\tShow the rate of one or more currencies (or all) on a day (default: the newest).",
                "--format\ttext, json, csv or ndjson (default: text).",
                "json\ttext, json, csv or ndjson (default: text).", "USD",
                "USD,JPY",
                "quarter\tOne row per week (from Monday), month, quarter or year, with its count of days: the mean of its rates, or --statistic.",
                "wide\tlong or wide (default: long).", "Fixtures/eurofxref-daily.xml",
                "CHF\tQuote against this currency instead of the euro.", "",
            ], "\(run.out)\(run.err)")
    }

    /// Currency codes come from the store `--store` names earlier on the line (`--store PATH`,
    /// `--store=PATH`, `~/…`), in bash, zsh and fish alike; here the default store does not
    /// exist, so without it nothing would be offered (issue 35, 7).
    @Test func currencyCodesComeFromTheStoreTheLineNames() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        #expect(store.path == dir.file("rates.sqlite").path)
        let binaries = CommandRun.executable.deletingLastPathComponent().path
        let environment = [
            "PATH": "\(binaries):/usr/bin:/bin", "ECBRATES_STORE": dir.file("none/rates.sqlite").path,
            "HOME": dir.url.path, "ROOT": FixturePaths.root.path,
        ]
        var scripts: [String: URL] = [:]
        for shell in ["bash", "zsh", "fish"] {
            let made = try CommandRun.process(["completions", shell])
            #expect(made.status == 0, "\(made)")
            let folder = dir.file(shell)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script = folder.appendingPathComponent(shell == "zsh" ? "_ecbrates" : "ecbrates.\(shell)")
            try made.out.write(to: script, atomically: true, encoding: .utf8)
            scripts[shell] = script
        }
        let bash = try SpawnedProcess.run(
            URL(fileURLWithPath: "/bin/bash"),
            [
                "-c",
                #"""
                source "$SCRIPT"
                ask() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _ecbrates
                    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '; echo; }
                ask ecbrates rate US
                ask ecbrates rate --store "$STORE" US
                ask ecbrates rate --store = "$STORE" GB
                ask ecbrates convert 100 --store '~/rates.sqlite' CH
                """#,
            ], environment: environment.merging(["SCRIPT": scripts["bash"]!.path, "STORE": store.path]) { $1 })
        #expect(bash.out == " \nUSD \nGBP \nCHF \n", "\(bash)")
        let zsh = try SpawnedProcess.run(
            PythonTools.system,
            [
                FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/zsh_completion_check.py").path,
                scripts["zsh"]!.deletingLastPathComponent().path, "ecbrates rate --store \(store.path) US",
                "ecbrates rate --store=\(store.path) GB",
            ], environment: environment, timeout: 120)
        #expect(
            zsh.out == "rate --store \(store.path) USD\nrate --store=\(store.path) GBP\n", "\(zsh.out)\(zsh.err)")
        let fish = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/fish"),
            [
                "-c",
                #"""
                source $argv[1]
                for prefix in "ecbrates rate US" "ecbrates rate --store $argv[2] US" "ecbrates rate --store=$argv[2] GB" \
                        "ecbrates rate --store ~/rates.sqlite CH"
                    echo (complete -C "$prefix" | string join "|")
                end
                """#, scripts["fish"]!.path, store.path,
            ], environment: environment, timeout: 120)
        #expect(fish.out == "\nUSD\nGBP\nCHF\n", "\(fish.out)\(fish.err)")
    }
}
