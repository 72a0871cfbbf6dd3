import Foundation
import TestSupport
import Testing

/// Manual pages made from the declarations `--help` uses: every page renders with groff's
/// warnings all on and none given, `man -l` reads it, and it names every option and argument
/// the command's help names (so the two cannot drift).
struct ManPageTests {
    static let commands = [
        "import", "validate", "rate", "convert", "latest", "stats", "series", "currencies", "export", "corrections",
        "status", "shell", "watch", "serve", "mcp", "man", "completions",
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
            plain.contains("EXIT STATUS") && plain.contains("ENVIRONMENT") && plain.contains("FILES"),
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
}
