/// Parses a command line against a command's declarations and sets each declared input's
/// typed value: words are split into options, flags and positional arguments, counted, and
/// each value parsed by its declaration (a bad one is a ``UsageError`` naming it).
struct ArgumentParser {
    let spec: CommandSpec

    /// What a parse found beside the values it set.
    struct Outcome {
        /// `-h` or `--help` was given: the values were not parsed.
        var wantsHelp = false
        /// The first bad value, when one was: thrown after every other value was set, so that
        /// the command's format (JSON errors) is known.
        var failure: UsageError?
    }

    /// Splits `words` (the words after the command's name), sets every declared input, and
    /// returns whether help was asked for and the first bad value. Unknown options, missing
    /// values and a wrong count of arguments throw at once.
    func parse(_ words: [String]) throws -> Outcome {
        var positional: [String] = []
        var given: [String: [String]] = [:]
        var index = 0
        var onlyPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            // A negative number (`-5`, `-12.50`) is an argument: no option starts with a digit.
            if onlyPositional || !word.hasPrefix("-") || word == "-" || Self.isNegativeNumber(word) {
                positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = spec.option(named: name) else { throw usage("Unknown option '\(name)'") }
            guard case .option(let valueName) = option.kind else {
                if inlineValue != nil { throw usage("The option '\(option.name)' takes no value") }
                given[option.name, default: []].append("")
                continue
            }
            if let inlineValue {
                given[option.name, default: []].append(inlineValue)
            } else if index < words.count,
                !(words[index].hasPrefix("-") && words[index] != "-" && Double(words[index]) == nil)
            {
                given[option.name, default: []].append(words[index])
                index += 1
            } else {
                throw usage("Missing value for '\(option.name) <\(valueName)>'")
            }
        }
        if given["--help"] != nil { return Outcome(wantsHelp: true) }

        let arguments = spec.arguments
        let required = arguments.filter { if case .argument(false, false) = $0.kind { true } else { false } }
        let repeating = arguments.contains { if case .argument(_, true) = $0.kind { true } else { false } }
        if !repeating && positional.count > arguments.count {
            throw usage("Unexpected argument '\(positional[arguments.count])'")
        }

        var outcome = Outcome()
        // Kept, not thrown, so that the options are read first: under --format json it is JSON,
        // with the code a question's missing field has through every door.
        if positional.count < required.count {
            outcome.failure = UsageError(
                "Missing expected argument '<\(required[positional.count].name)>'", command: spec.name,
                code: "bad-parameter")
        }
        var next = 0
        for declaration in spec.declarations {
            let words: [String]
            switch declaration.kind {
            case .argument(_, true):
                words = Array(positional[min(next, positional.count)...])
                next = positional.count
            case .argument:
                words = next < positional.count ? [positional[next]] : []
                next += 1
            case .option, .flag:
                words = given[declaration.name] ?? []
            }
            do {
                try declaration.assign(words)
            } catch let error as UsageError {
                if outcome.failure == nil {
                    outcome.failure = UsageError(error.message, command: spec.name, code: error.code)
                }
            }
        }
        return outcome
    }

    private func usage(_ message: String) -> UsageError { UsageError(message, command: spec.name) }

    static func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && word.dropFirst().first!.isASCII && word.dropFirst().first!.isNumber
    }
}
