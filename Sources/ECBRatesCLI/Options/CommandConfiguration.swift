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
}
