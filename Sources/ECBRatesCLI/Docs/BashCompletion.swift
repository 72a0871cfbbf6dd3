/// The bash completion script, made from the commands' declarations, as `--help` is: the
/// commands; each command's options and flags; the values of options that take one of a list
/// (`--format`, `--fallback`, `--layout`, …); file names where a file is asked for; and the
/// currency codes the store holds (asked of `ecbrates currencies` as completion runs, so they
/// are the store's own, the euro too; of the store `--store` names earlier on the line, else the
/// default) for currency arguments and options, also after a comma (`USD,JP` completes to
/// `USD,JPY`).
enum BashCompletion {
    /// The script for `commands`.
    static func script(commands: [CommandEntry]) -> String {
        var script = """
            # bash completion for ecbrates (made by `ecbrates completions bash` from its declarations)
            _ecbrates_currencies() {
                # The store the line names (--store PATH, --store=PATH; bash splits at the =), else the default.
                local store=() i
                for (( i = 2; i < COMP_CWORD; i++ )); do
                    if [[ "${COMP_WORDS[i]}" == --store ]]; then
                        if [[ "${COMP_WORDS[i+1]}" == = ]]; then store=(--store "${COMP_WORDS[i+2]}"); else store=(--store "${COMP_WORDS[i+1]}"); fi
                    elif [[ "${COMP_WORDS[i]}" == --store=* ]]; then
                        store=(--store "${COMP_WORDS[i]#--store=}")
                    fi
                done
                [[ ${#store[@]} -eq 2 && "${store[1]}" == "~/"* ]] && store[1]="$HOME/${store[1]:2}"
                { echo EUR; command ecbrates currencies "${store[@]}" --format csv 2>/dev/null | tail -n +2 | cut -d, -f1; } | sort -u
            }
            _ecbrates_codes() {
                local cur="$1" prefix=""
                [[ "$cur" == *,* ]] && prefix="${cur%,*},"
                COMPREPLY=( $(compgen -P "$prefix" -W "$(_ecbrates_currencies)" -- "${cur##*,}") )
            }
            _ecbrates() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                if [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=( $(compgen -W "\(commands.map(\.name).joined(separator: " ")) help --help --version" -- "$cur") )
                    return
                fi
                case "${COMP_WORDS[1]}" in

            """
        for command in commands {
            let spec = command.makeSpec()
            script += "        \(spec.name))\n            case \"$prev\" in\n"
            for option in spec.options {
                guard case .option = option.kind else { continue }
                let action: String
                if !option.choices.isEmpty {
                    // A choice with a quote (`1'234.56`) is typed, not offered: compgen would read the quote.
                    let offered = option.choices.filter { !$0.contains("'") }
                    action = "COMPREPLY=( $(compgen -W \"\(offered.joined(separator: " "))\" -- \"$cur\") )"
                } else {
                    switch option.completion {
                    case .currencies: action = "_ecbrates_codes \"$cur\""
                    case .file: action = "COMPREPLY=( $(compgen -f -- \"$cur\") )"
                    case .directory: action = "COMPREPLY=( $(compgen -d -- \"$cur\") )"
                    case .words(let words):
                        action = "COMPREPLY=( $(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\") )"
                    case .none: action = "COMPREPLY=()"
                    }
                }
                script += "                \(option.name)) \(action); return ;;\n"
            }
            script += "            esac\n"
            let flags = spec.options.map(\.name) + ["-h"]
            script += "            if [[ \"$cur\" == -* ]]; then\n"
            script += "                COMPREPLY=( $(compgen -W \"\(flags.joined(separator: " "))\" -- \"$cur\") )\n"
            script += "                return\n            fi\n"
            if let argument = spec.arguments.first(where: { $0.completion != .none }) {
                switch argument.completion {
                case .currencies: script += "            _ecbrates_codes \"$cur\"\n"
                case .file: script += "            COMPREPLY=( $(compgen -f -- \"$cur\") )\n"
                case .directory: script += "            COMPREPLY=( $(compgen -d -- \"$cur\") )\n"
                case .words(let words):
                    script +=
                        "            COMPREPLY=( $(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\") )\n"
                case .none: break
                }
            }
            script += "            ;;\n"
        }
        script += """
                help) COMPREPLY=( $(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur") ) ;;
                esac
            }
            complete -F _ecbrates ecbrates

            """
        return script
    }
}
