import Foundation
import TestSupport
import Testing

/// The shell, driven through a pipe: queries answer while an import runs in the background.
@Suite struct ShellTests {
    @Test func statusAnswersWhileTheImportRunsAndTheCountGrowsToTheWholeHistory() throws {
        let dir = TemporaryDirectory()
        let shell = try InteractiveProcess(
            CommandRun.executable, arguments: ["shell", "--store", dir.file("rates.sqlite").path],
            environment: ["ECBRATES_NOW": "2026-10-01T10:00:00Z"], directory: FixturePaths.root)
        shell.send("status --format json")
        let before = try #require(shell.readLine(timeout: 30))
        #expect(before.contains(#""rates":0"#))
        shell.send("import Fixtures/eurofxref-hist.xml --chunk-days 50")
        #expect(shell.readLine(timeout: 30) == "import started in the background: Fixtures/eurofxref-hist.xml")

        var counts: [Int] = []
        var importLine: String?
        while counts.last != 221_064 {
            shell.send("status --format json")
            // Answers come back while the import runs; its result line comes when it ends.
            var answer = try #require(shell.readLine(timeout: 60), "no answer to status")
            if answer.hasPrefix("Fixtures/eurofxref-hist.xml:") {
                importLine = answer
                answer = try #require(shell.readLine(timeout: 60))
            }
            let match = try #require(answer.firstMatch(of: /"rates":(\d+)/), "not a status: \(answer)")
            counts.append(Int(match.1)!)
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(counts == counts.sorted(), "the count never goes back: \(counts)")
        #expect(counts.contains { $0 > 0 && $0 < 221_064 }, "answers came during the import: \(counts)")
        shell.send("rate USD --date 2020-03-13")
        var line = try #require(shell.readLine(timeout: 30))
        if line.hasPrefix("Fixtures/eurofxref-hist.xml:") {
            importLine = line
            line = try #require(shell.readLine(timeout: 30))
        }
        #expect(line == "USD 1.1104 on 2020-03-13")
        shell.send("quit")
        if importLine == nil { importLine = shell.readLine(timeout: 60) }
        #expect(
            importLine?.hasPrefix(
                "Fixtures/eurofxref-hist.xml: 7104 days 1999-01-04..2026-09-30, 221064 rates: 221064 new") == true)
        let (status, errors) = shell.finish()
        #expect(status == 0, "\(errors)")
    }

    @Test func theShellExplainsItselfAndRejectsUnknownCommands() throws {
        let dir = TemporaryDirectory()
        let run = try CommandRun.process(
            ["shell", "--store", dir.file("r.sqlite").path], input: Data("help\nfrobnicate\n# a comment\nquit\n".utf8))
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("Commands (as on the command line, without 'ecbrates' and --store):\n"))
        #expect(run.err == "Error: unknown command 'frobnicate'; 'help' lists them\n")
    }

    /// A --store on a line was ignored: the answer came from the shell's store, not the one
    /// named. It is refused, naming the store the shell answers from.
    @Test func aStoreNamedOnALineIsRefusedNotIgnored() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let run = try CommandRun.process(
            ["shell", "--store", store.path],
            input: Data(
                "rate USD --date 2024-03-28 --store /elsewhere/rates.sqlite\nrate USD --date 2024-03-28\nquit\n".utf8))
        #expect(
            run.err
                == "Error: this shell answers from \(store.path); '--store' is given to 'ecbrates shell', not to a line\n",
            "\(run.err)")
        #expect(run.out == "USD 1.0811 on 2024-03-28\n", "only the second line is answered: \(run.out)")
        #expect(run.status == 65, "a line refused counts as a failure of the session: \(run)")
    }

    /// At a terminal the shell edits lines with libedit: the up arrow recalls the last line,
    /// and the history is kept in `~/.local/state/ecbrates/shell_history` for the next session.
    /// A stale store's warning is said once in a session, not after every query. Driven through
    /// a pseudo-terminal by `shell_pty_check.py`, as a person types.
    @Test func atATerminalLinesAreEditedAndRememberedAndAStaleStoreIsSaidOnce() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let home = dir.file("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let script = FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/shell_pty_check.py").path
        let run = try SpawnedProcess.run(
            PythonTools.system, [script, CommandRun.executable.path, store.path, home.path, "rate USD"],
            environment: ["ECBRATES_NOW": "2026-10-06T15:00:00Z"], timeout: 120)
        #expect(run.status == 0, "\(run)")
        let sessions = run.out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        try #require(sessions.count == 2, "\(run)")
        let first = sessions[0]["transcript"] as? String ?? ""
        let second = sessions[1]["transcript"] as? String ?? ""
        // The line, then the same line recalled with the up arrow: two answers, one warning.
        #expect(first.components(separatedBy: "USD 1.1355 on 2026-09-30").count - 1 == 2, "\(first)")
        #expect(
            first.components(separatedBy: "warning: the store's newest day is 2026-09-30").count - 1 == 1, "\(first)")
        // The next session recalls it from the history file.
        #expect(second.components(separatedBy: "USD 1.1355 on 2026-09-30").count - 1 == 1, "\(second)")
        let history = try String(
            contentsOf: home.appendingPathComponent(".local/state/ecbrates/shell_history"), encoding: .utf8)
        #expect(history.contains("rate\\040USD"), "\(history)")
        #expect(sessions.allSatisfy { $0["status"] as? Int == 0 }, "\(run)")
    }
}
