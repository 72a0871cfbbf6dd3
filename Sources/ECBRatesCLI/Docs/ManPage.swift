import Foundation

/// Manual pages in roff (man(7)), made from the same declarations as `--help`, so that they
/// cannot drift from the tool: `ecbrates(1)` and one page per command (`ecbrates-rate(1)`).
///
/// ```
/// ecbrates man rate | man -l -
/// ```
enum ManPage {
    /// The exit statuses, as every page lists them.
    static let exitStatuses: [(Int32, String)] = [
        (ExitCode.success, "Success."),
        (ExitCode.stale, "status --max-age-days: the store is too old, has holes, or lacks the start of its history."),
        (ExitCode.usage, "The command line is wrong (EX_USAGE)."),
        (
            ExitCode.dataError,
            "Bad data: a file that is not good ECB data, or a question the store cannot answer as asked (EX_DATAERR)."
        ),
        (ExitCode.noInput, "A missing file, URL or store (EX_NOINPUT)."),
        (ExitCode.software, "A bug (EX_SOFTWARE)."),
        (ExitCode.ioError, "The store or a file cannot be read or written (EX_IOERR)."),
        (
            ExitCode.tryAgainLater,
            "Try again later: network trouble, the day's rates not out yet, another import running (EX_TEMPFAIL)."
        ),
        (130, "Stopped by SIGINT, after saying what was stored (143 for SIGTERM)."),
    ]

    /// The environment variables ecbrates reads.
    static let environment: [(String, String)] = [
        ("ECBRATES_STORE", "The store to use when no --store is given."),
        (
            "XDG_DATA_HOME",
            "Your own store is $XDG_DATA_HOME/ecbrates/rates.sqlite (else ~/.local/share/ecbrates/rates.sqlite)."
        ),
        (
            "ECBRATES_SYSTEM_STORE",
            "The system-wide store, used when you have no store of your own (default: /var/lib/ecbrates/rates.sqlite)."
        ),
        (
            "XDG_STATE_HOME",
            "The shell's history is $XDG_STATE_HOME/ecbrates/shell_history (else ~/.local/state/ecbrates)."
        ),
        ("ECBRATES_ECB_URL", "A mirror of the ECB's folder to fetch from, instead of the ECB's own."),
        ("ECBRATES_NOW", "The time it is, ISO 8601 (for tests and reproducible runs)."),
        ("NO_COLOR", "When set, no colour in charts."),
        ("COLUMNS", "The width a terminal chart takes."),
    ]

    /// The files ecbrates uses.
    static let files: [(String, String)] = [
        (
            "~/.local/share/ecbrates/rates.sqlite",
            "Your store (SQLite), by default: every command uses it when neither --store nor ECBRATES_STORE names another, and an import with neither makes it."
        ),
        (
            "/var/lib/ecbrates/rates.sqlite",
            "The system-wide store, kept by the ecbrates-import timer of the Debian package and readable by all: used when you have no store of your own ('ecbrates status' says which store it used, and why). An import into it by a user who may not write it is refused, with the way to a store of one's own."
        ),
        ("/etc/default/ecbrates", "Settings of the package's systemd units (the server's --listen, a mirror's URL)."),
        (
            "/usr/lib/systemd/system/ecbrates-import.timer",
            "Imports the day's rates on TARGET business days after 16:00 Frankfurt time, retrying while the ECB is late (exit 75)."
        ),
        ("~/.local/state/ecbrates/shell_history", "The interactive shell's line history."),
    ]

    /// The page of `spec`: `ecbrates-rate(1)`.
    static func page(for spec: CommandSpec) -> String {
        var roff = header(title: "ECBRATES-\(spec.name.uppercased())")
        roff += ".SH NAME\necbrates\\-\(escape(spec.name)) \\- \(escape(spec.abstract))\n"
        roff += ".SH SYNOPSIS\n.B ecbrates \(escape(spec.name))\n"
        for part in spec.usage.split(separator: " ").dropFirst(2) { roff += escape(String(part)) + "\n" }
        roff += ".SH DESCRIPTION\n" + paragraphs(spec.abstract)
        if let discussion = spec.configuration.discussion { roff += ".PP\n" + paragraphs(discussion) }
        if !spec.arguments.isEmpty {
            roff += ".SH ARGUMENTS\n"
            for argument in spec.arguments { roff += ".TP\n.I \(escape(argument.name))\n" + paragraphs(argument.help) }
        }
        roff += ".SH OPTIONS\n"
        for option in spec.options {
            var names = option.name == "--help" ? "\\fB\\-h\\fR, \\fB\\-\\-help\\fR" : "\\fB\(escape(option.name))\\fR"
            if case .option(let value) = option.kind { names += " \\fI\(escape(value))\\fR" }
            var help = option.help
            if !option.choices.isEmpty && !help.contains(option.choices[0]) {
                help += " One of: " + option.choices.joined(separator: ", ") + "."
            }
            roff += ".TP\n\(names)\n" + paragraphs(help)
        }
        roff += examplesSection(CommandExample.of(spec.name))
        roff += commonSections()
        roff += ".SH SEE ALSO\n.BR ecbrates (1)\n"
        return roff
    }

    /// `ecbrates(1)`: the commands, each with its page.
    static func mainPage(commands: [CommandEntry]) -> String {
        var roff = header(title: "ECBRATES")
        roff += ".SH NAME\necbrates \\- the ECB's euro reference exchange rates, in a local store\n"
        roff += ".SH SYNOPSIS\n.B ecbrates\n.I command\n[\\fIarguments\\fR] [\\fIoptions\\fR]\n"
        roff += ".SH DESCRIPTION\n"
        roff += paragraphs(
            "ecbrates imports the European Central Bank's euro reference exchange rates (daily, 90-day and "
                + "full-history files, XML, CSV or zip) into a local SQLite store, and answers rate questions "
                + "from it exactly, to the digit, at a terminal, from cron, over HTTP and over MCP.")
        roff += ".SH COMMANDS\n"
        for command in commands {
            roff += ".TP\n.B \(escape(command.name))\n" + paragraphs(command.abstract)
            roff += "See\n.BR ecbrates\\-\(escape(command.name)) (1).\n"
        }
        roff += examplesSection(CommandExample.of(nil))
        roff += commonSections()
        roff +=
            ".SH SEE ALSO\n" + commands.map { ".BR ecbrates\\-\(escape($0.name)) (1)" }.joined(separator: ",\n") + "\n"
        return roff
    }

    private static func header(title: String) -> String {
        ".TH \(title) 1 \"\" \"ecbrates \(CLI.version)\" \"User Commands\"\n"
    }

    /// EXAMPLES: each example's purpose, then its line (and output) as a display.
    private static func examplesSection(_ examples: [CommandExample]) -> String {
        guard !examples.isEmpty else { return "" }
        var roff = ".SH EXAMPLES\n"
        for example in examples {
            roff += ".PP\n" + paragraphs(example.purpose) + ".PP\n.RS 4\n.EX\n" + escape("$ " + example.line) + "\n"
            if let output = example.output {
                for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                    roff += escape(String(line)) + "\n"
                }
            }
            roff += ".EE\n.RE\n"
        }
        return roff
    }

    /// Every page, by file name: `ecbrates.1`, then `ecbrates-<command>.1` for each command.
    static func allPages(commands: [CommandEntry]) -> [(name: String, roff: String)] {
        [("ecbrates.1", mainPage(commands: commands))]
            + commands.map { ("ecbrates-\($0.name).1", page(for: $0.makeSpec())) }
    }

    private static func commonSections() -> String {
        var roff = ".SH EXIT STATUS\n"
        for (code, meaning) in exitStatuses { roff += ".TP\n.B \(code)\n" + paragraphs(meaning) }
        roff += ".SH ENVIRONMENT\n"
        for (name, meaning) in environment { roff += ".TP\n.B \(name)\n" + paragraphs(meaning) }
        roff += ".SH FILES\n"
        for (path, meaning) in files { roff += ".TP\n.I \(escape(path))\n" + paragraphs(meaning) }
        return roff
    }

    /// Text as roff lines: one per line of `text`, escaped, blank lines as paragraph breaks.
    static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? ".PP" : escape(trimmed)
        }.joined(separator: "\n") + "\n"
    }

    /// `text` safe as roff: backslashes and hyphens escaped, a character that is not ASCII as
    /// its `\[uXXXX]` (so that groff reads it without preconv), a leading `.` or `'` made literal.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default: out += "\\[u" + String(format: "%04X", scalar.value) + "]"
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
