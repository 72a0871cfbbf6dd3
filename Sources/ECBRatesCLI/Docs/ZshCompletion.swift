/// The zsh completion script, made from the commands' declarations, as `--help` and the bash
/// script are: the commands with their abstracts, each command's options with their help, the
/// values of options that take one of a list, file and directory names where asked for, and the
/// store's currency codes (asked of `ecbrates currencies` as completion runs, of the store
/// `--store` names earlier on the line, else the default) for currency
/// arguments and options, one after another in a comma-separated list.
///
/// Installed as `_ecbrates` in a directory of `$fpath` (the Debian package's is
/// `/usr/share/zsh/vendor-completions`), or loaded with `source <(ecbrates completions zsh)`
/// after `compinit`.
enum ZshCompletion {
    /// The script for `commands`.
    static func script(commands: [CommandEntry]) -> String {
        var script = """
            #compdef ecbrates
            # zsh completion for ecbrates (made by `ecbrates completions zsh` from its declarations)

            _ecbrates_codes() {
                # The store the line names (--store PATH, --store=PATH), else the default.
                local -a codes store
                local i
                for (( i = 1; i < CURRENT; i++ )); do
                    case $words[i] in
                        --store) store=(--store ${~words[i+1]}) ;;
                        --store=*) store=(--store ${~words[i]#--store=}) ;;
                    esac
                done
                codes=(EUR ${(f)"$(command ecbrates currencies $store --format csv 2>/dev/null | tail -n +2 | cut -d, -f1)"})
                _sequence -s , compadd - ${(u)codes}
            }

            _ecbrates() {
                local -a commands
                commands=(

            """
        for command in commands {
            script += "        '\(quoted(command.name + ":" + command.abstract))'\n"
        }
        script += """
                )
                if (( CURRENT == 2 )); then
                    _describe -t commands 'ecbrates command' commands
                    _arguments '--version[Show the version.]' '(-h --help)'{-h,--help}'[Show help information.]'
                    return
                fi
                local command=$words[2]
                shift words
                (( CURRENT-- ))
                curcontext="${curcontext%:*:*}:ecbrates-$command:"
                case $command in

            """
        for command in commands {
            let spec = command.makeSpec()
            var specs: [String] = []
            for option in spec.options {
                let help = "[" + bracketed(option.help) + "]"
                switch option.kind {
                case .flag where option.name == "--help":
                    specs.append("'(-h --help)'{-h,--help}'\(quoted(help))'")
                case .flag:
                    specs.append("'\(quoted(option.name + help))'")
                case .option(let value):
                    // `--date=`: the value as the next word or after `=` (both are taken).
                    specs.append(
                        "'\(quoted(option.name + "=" + help + ":" + value + ":" + action(option.choices, option.completion)))'"
                    )
                case .argument:
                    break
                }
            }
            for (index, argument) in spec.arguments.enumerated() {
                let action = action([], argument.completion)
                if case .argument(_, repeating: true) = argument.kind {
                    specs.append("'\(quoted("*:" + argument.name + ":" + action))'")
                } else {
                    specs.append("'\(quoted("\(index + 1):" + argument.name + ":" + action))'")
                }
            }
            script += "        \(spec.name))\n            _arguments -s \\\n"
            script += specs.map { "                \($0)" }.joined(separator: " \\\n") + "\n            ;;\n"
        }
        script += """
                help)
                    _describe -t commands 'ecbrates command' commands
                    ;;
                esac
            }

            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
                _ecbrates "$@"
            else
                compdef _ecbrates ecbrates
            fi

            """
        return script
    }

    /// What completes a value: one of `choices`, or by `completion`.
    private static func action(_ choices: [String], _ completion: ValueCompletion) -> String {
        // A choice with a quote (`1'234.56`) is typed, not offered: _arguments would read the quote.
        if !choices.isEmpty { return "(" + choices.filter { !$0.contains("'") }.joined(separator: " ") + ")" }
        switch completion {
        case .currencies: return "_ecbrates_codes"
        case .file: return "_files"
        case .directory: return "_files -/"
        case .words(let words): return "(" + words.joined(separator: " ") + ")"
        case .none: return " "
        }
    }

    /// `text` inside an `_arguments` description's brackets: `[`, `]` and `\` escaped.
    private static func bracketed(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "[" || character == "]" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `text` inside single quotes.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''")
    }
}
