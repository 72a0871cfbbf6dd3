/// A subcommand in the list: its name, and how to make it with its declarations.
///
/// Only the command run is made (its declarations built): making all thirteen at every start
/// cost a query's start-up their option tables and the Swift runtime's first look at their
/// types.
struct CommandEntry: Sendable {
    let name: String
    /// One sentence, for the list of commands.
    let abstract: String
    /// Whether the shell runs it.
    let inShell: Bool
    /// A fresh command, at its defaults, and its spec.
    let make: @Sendable () -> (any ParsableCommand, CommandSpec)

    init<C: ParsableCommand>(_: C.Type) {
        name = C.configuration.name
        abstract = C.configuration.abstract
        inShell = C.configuration.inShell
        make = {
            let (command, declarations) = DeclarationCollector.make(C.self)
            return (command, CommandSpec(configuration: C.configuration, declarations: declarations))
        }
    }

    /// The command's spec (usage, help).
    func makeSpec() -> CommandSpec { make().1 }
}
