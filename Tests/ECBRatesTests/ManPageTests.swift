import Foundation
import TestSupport
import Testing

/// Manual pages made from the declarations `--help` uses: every page renders with groff's
/// warnings all on and none given, `man -l` reads it, and it names every option and argument
/// the command's help names (so the two cannot drift).
struct ManPageTests {
    static let commands = [
        "import", "validate", "rate", "convert", "latest", "series", "stats", "currencies", "corrections", "status",
        "export", "shell", "watch", "serve", "mcp", "man", "completions",
    ]

    @Test(arguments: [""] + commands)
    func everyPageRendersWithoutWarningsAndNamesEveryInput(command: String) throws {
        let dir = TemporaryDirectory()
        let page = try CommandRun.process(["man"] + (command.isEmpty ? [] : [command]))
        #expect(page.status == 0, "\(page)")
        let file = dir.file("page.1")
        try page.out.write(to: file, atomically: true, encoding: .utf8)
        let groff = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/groff"), ["-ww", "-man", "-Tutf8", "-P-cbou", file.path],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(groff.status == 0 && groff.err.isEmpty, "groff warns on '\(command)': \(groff.err)")
        let man = try SpawnedProcess.run(
            URL(fileURLWithPath: "/usr/bin/man"), ["-l", file.path],
            environment: ["MANPAGER": "cat", "MANWIDTH": "100", "PATH": "/usr/bin:/bin"])
        #expect(man.status == 0, "\(man)")
        // Rendered plain (-P-cbou: no bold, underline or overstrike), every input the help
        // lists is on the page.
        let plain = groff.out
        #expect(
            plain.contains("EXIT STATUS") && plain.contains("ENVIRONMENT") && plain.contains("FILES")
                && plain.contains("EXAMPLES"),
            "\(plain)")
        guard !command.isEmpty else {
            for name in Self.commands { #expect(plain.contains("ecbrates-\(name)(1)"), "\(name)") }
            return
        }
        let help = try CommandRun.process([command, "--help"])
        let inputs = help.out.split(separator: "\n").compactMap { line -> String? in
            let word = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            return word.hasPrefix("--") || (word.hasPrefix("<") && word.hasSuffix(">")) ? word : nil
        }
        #expect(!inputs.isEmpty)
        for input in inputs {
            let name = input.hasPrefix("<") ? String(input.dropFirst().dropLast()) : input
            #expect(plain.contains(name), "\(command)'s page lacks \(name)")
        }
    }

    /// `man --write DIR` writes ecbrates.1 and a page per command, each the page `man <command>`
    /// prints, and names each file it wrote.
    @Test func writeMakesEveryPage() throws {
        let dir = TemporaryDirectory()
        let run = try CommandRun.process(["man", "--write", dir.file("man1").path])
        #expect(run.status == 0, "\(run)")
        let names = ["ecbrates.1"] + Self.commands.map { "ecbrates-\($0).1" }
        #expect(run.out == names.map { dir.file("man1").path + "/" + $0 + "\n" }.joined(), "\(run.out)")
        for (name, command) in zip(names, [""] + Self.commands) {
            let written = try String(contentsOf: dir.file("man1/\(name)"), encoding: .utf8)
            let printed = try CommandRun.process(["man"] + (command.isEmpty ? [] : [command])).out
            #expect(written == printed, "\(name)")
        }
        let refused = try CommandRun.process(["man", "rate", "--write", dir.url.path])
        #expect(refused.status == 64, "\(refused)")
    }

    /// The examples of a page (`.EX` … `.EE`): the line after `$ `, and what it prints.
    static func examples(inPage roff: String) -> [(line: String, output: String)] {
        var examples: [(line: String, output: String)] = []
        var current: [String]?
        for line in roff.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == ".EX" {
                current = []
            } else if line == ".EE", let lines = current {
                let text = lines.map {
                    $0.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
                }
                let output = text.dropFirst().map { $0.hasPrefix("\\&") ? String($0.dropFirst(2)) : $0 }
                examples.append((String(text[0].dropFirst(2)), output.map { $0 + "\n" }.joined()))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return examples
    }

    /// Every example of every page runs, as the page shows it, on a store of the ECB's full
    /// history with the ECB's files in the working directory (and a mirror of the ECB's folder
    /// for an import with no file): it exits 0 and prints what the page shows. A command that
    /// runs until stopped (serve, watch) must still be running after a second, and end with
    /// exit 0 on SIGTERM.
    @Test func everyExampleRunsAndPrintsWhatThePageShows() async throws {
        let dir = TemporaryDirectory()
        let store = try await PreparedStore.copy(into: dir)
        let work = dir.file("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for file in [FixturePaths.history, FixturePaths.ninetyDays, FixturePaths.daily] {
            try FileManager.default.copyItem(at: file, to: work.appendingPathComponent(file.lastPathComponent))
        }
        let server = try LoopbackServer(serving: FixturePaths.fixtures)
        let environment = [
            "PATH": CommandRun.executable.deletingLastPathComponent().path + ":/usr/bin:/bin",
            "ECBRATES_STORE": store.path, "ECBRATES_NOW": "2026-10-01T12:00:00Z", "HOME": dir.url.path,
            "ECBRATES_ECB_URL": server.url("/ok/").absoluteString, "MANPAGER": "cat", "MANWIDTH": "80",
        ]
        var count = 0
        for command in [""] + Self.commands {
            let page = try CommandRun.process(["man"] + (command.isEmpty ? [] : [command])).out
            let examples = Self.examples(inPage: page)
            #expect(!examples.isEmpty, "\(command) has no example")
            for example in examples {
                count += 1
                let running = try SpawnedProcess.Running(
                    URL(fileURLWithPath: "/bin/bash"), ["-c", "cd \"$WORK\" && " + example.line],
                    environment: environment.merging(["WORK": work.path]) { $1 })
                if example.line.hasPrefix("ecbrates serve") || example.line.hasPrefix("ecbrates watch") {
                    // Stopped once it is running (its first line said so, after its signal
                    // handling is in place): on a loaded machine, start-up takes its time.
                    let serve = example.line.hasPrefix("ecbrates serve")
                    _ = Waiting.until(timeout: .seconds(60)) {
                        running.hasEnded
                            || (serve ? running.errorSoFar.contains("serving ") : !running.outputSoFar.isEmpty)
                    }
                    #expect(!running.hasEnded, "\(example.line) ended: \(running.errorSoFar)")
                    running.kill(SIGTERM)
                }
                let run = try running.wait(timeout: 120)
                #expect(run.status == 0, "\(example.line): \(run.err)")
                if !example.output.isEmpty {
                    #expect(run.out == example.output, "\(example.line)")
                }
            }
        }
        #expect(count >= Self.commands.count + 3)
    }
}
