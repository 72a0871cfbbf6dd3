import ECBRates

/// What a command is, beside its inputs: the word that runs it and its help text.
struct CommandConfiguration: Sendable {
    /// The word that runs it (`rate`).
    let name: String
    /// One sentence, for the list of commands and the help's overview.
    let abstract: String
    /// More, for the help page.
    var discussion: String?
    /// Whether the shell runs it (every command but the shell itself).
    var inShell = true

    /// The configuration of the command that asks `question`: its name, abstract and discussion.
    init<Q: Question>(question _: Q.Type) {
        self.init(name: Q.name, abstract: Q.abstract, discussion: Q.discussion)
    }

    /// A command named `name`, with `abstract` (and `discussion`).
    init(name: String, abstract: String, discussion: String? = nil, inShell: Bool = true) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.inShell = inShell
    }
}
