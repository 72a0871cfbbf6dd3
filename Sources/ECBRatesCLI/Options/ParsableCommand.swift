import ECBRates

/// A subcommand: a struct whose properties declare its inputs once (``Option``, ``Flag``,
/// ``Argument`` and their kin), made and filled by the parser, then run.
///
/// ```swift
/// struct ExportCommand: ParsableCommand {
///     static let configuration = CommandConfiguration(name: "export", abstract: "…")
///     @Asked(ExportRequest.self) var asked: QuestionInput       // its fields' options
///     @Option(CommonOptions.output) var output: String?
///     func run(_ context: CommandContext) async throws -> Int32 { … }
/// }
/// ```
protocol ParsableCommand: Sendable {
    /// Its name and help.
    static var configuration: CommandConfiguration { get }
    /// A command with every input at its default (the parser then sets what was given).
    init()
    /// Whether it runs on the main thread alone (see ``CLI/start(_:)``): true for a command
    /// that works in one context; false for one that runs workers beside its own work, reads
    /// standard input or waits for signals.
    var runsOnMainThread: Bool { get }
    /// True when it turns SIGINT and SIGTERM into a polite stop (``SignalTrap/attach(_:)``):
    /// an import, `watch`, `serve`. Every other command has their default action.
    var stopsPolitelyOnSignals: Bool { get }
    /// The format its answers are in, when it has one: under a JSON format, errors are JSON too.
    var outputFormat: OutputFormat? { get }
    /// True when it was asked to print nothing on success (`--quiet`).
    var quiet: Bool { get }
    /// Does the work, printing through `context`, and returns the exit code.
    func run(_ context: CommandContext) async throws -> Int32
}

extension ParsableCommand {
    var runsOnMainThread: Bool { true }
    var stopsPolitelyOnSignals: Bool { false }
    var outputFormat: OutputFormat? { nil }
    var quiet: Bool { false }
}
