/// The fish completion script, made from the commands' declarations, as `--help` and the bash
/// and zsh scripts are: the commands with their abstracts, each command's options with their
/// help, the values of options that take one of a list, file and directory names where asked
/// for, and the store's currency codes (asked of `ecbrates currencies` as completion runs, of the
/// store `--store` names earlier on the line, else the default) for
/// currency arguments and options, also after a comma (`USD,JP` completes to `USD,JPY`).
///
/// Installed as `ecbrates.fish` in a directory fish looks in (the Debian package's is
/// `/usr/share/fish/vendor_completions.d`), or loaded with `ecbrates completions fish | source`.
enum FishCompletion {
    /// The script for `commands`.
    static func script(commands: [CommandEntry]) -> String {
        let names = commands.map(\.name).joined(separator: " ")
        var script = """
            # fish completion for ecbrates (made by `ecbrates completions fish` from its declarations)
            function __ecbrates_codes
                set -l prefix (string replace -r '[^,]*$' '' -- (commandline -ct))
                # The store the line names (--store PATH, --store=PATH), else the default.
                set -l words (commandline -opc)
                set -l store
                for i in (seq (count $words))
                    if test "$words[$i]" = --store; and test $i -lt (count $words)
                        set store --store (string replace -r '^~' -- $HOME $words[(math $i + 1)])
                    else if string match -q -- '--store=*' $words[$i]
                        set store --store (string replace -r '^~' -- $HOME (string replace -- '--store=' '' $words[$i]))
                    end
                end
                for code in EUR (command ecbrates currencies $store --format csv 2>/dev/null | tail -n +2 | cut -d, -f1)
                    echo $prefix$code
                end
            end
            complete -c ecbrates -f
            complete -c ecbrates -n __fish_use_subcommand -l version -d 'Show the version.'
            complete -c ecbrates -n __fish_use_subcommand -s h -l help -d 'Show help information.'
            complete -c ecbrates -n '__fish_seen_subcommand_from help' -a '\(names)'

            """
        for command in commands {
            script +=
                "complete -c ecbrates -n __fish_use_subcommand -a \(command.name) -d '\(quoted(command.abstract))'\n"
        }
        for command in commands {
            let spec = command.makeSpec()
            let condition = "-n '__fish_seen_subcommand_from \(spec.name)'"
            for option in spec.options {
                let long = "-l " + option.name.dropFirst(2)
                let short = option.name == "--help" ? "-s h " : ""
                var line = "complete -c ecbrates \(condition) \(short)\(long)"
                if case .option = option.kind { line += " " + value(option.choices, option.completion) }
                script += line + " -d '\(quoted(option.help))'\n"
            }
            for argument in spec.arguments where argument.completion != .none {
                script += "complete -c ecbrates \(condition) \(value([], argument.completion))\n"
            }
        }
        return script
    }

    /// The flags that say what completes a value: one of `choices`, or by `completion`.
    private static func value(_ choices: [String], _ completion: ValueCompletion) -> String {
        // A choice with a quote (`1'234.56`) is typed, not offered: fish would read the quote.
        if !choices.isEmpty { return "-x -a '\(choices.filter { !$0.contains("'") }.joined(separator: " "))'" }
        switch completion {
        case .currencies: return "-x -a '(__ecbrates_codes)'"
        case .file: return "-r -F"
        case .directory: return "-x -a '(__fish_complete_directories)'"
        case .words(let words): return "-x -a '\(words.joined(separator: " "))'"
        case .none: return "-x"
        }
    }

    /// `text` inside single quotes: `\` and `'` escaped.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}
