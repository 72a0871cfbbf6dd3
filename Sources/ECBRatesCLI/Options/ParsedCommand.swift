/// A command made from a command line: the command with its inputs set, its spec, and the
/// first bad value, if any (then it does not run).
struct ParsedCommand: Sendable {
    let command: any ParsableCommand
    let spec: CommandSpec
    let failure: UsageError?
}
