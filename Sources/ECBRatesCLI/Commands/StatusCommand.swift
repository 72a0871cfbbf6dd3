import ECBRates
import Foundation

/// `ecbrates status`: what the store holds and whether it is up to date.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show what the store holds, its last import, and whether it is up to date.",
        discussion: """
            Up to date means the store has the rates of every TARGET business day whose rates are out
            (around 16:00 CET), and no hole: no business day without rates between its first and newest
            days. With --max-age-days, the command exits 1 when the newest stored day is more days older
            than the newest day due, or when the store has a hole: for monitoring a cron job.
            """)

    @Option(
        .integer(
            "--max-age-days", minimum: 0,
            help:
                "Exit 1 when the store is more than this many days behind, has holes, or lacks the start of its history."
        ))
    var maxAge: Int?
    @Flag(CommonOptions.quiet) var quiet: Bool
    @Option(CommonOptions.format([.text, .json, .csv]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }

    func run(_ context: CommandContext) async throws -> Int32 {
        let store = try QuerySupport.openStore(self.store, context: context)
        var status = try await QuerySupport.ask(store, context: context) { try $0.status() }
        status.store = store.url.path
        context.console.out(status.rendered(as: format))
        if maxAge != nil, status.lastDay == nil {
            context.console.err("the store is empty: no rates at all; run 'ecbrates import'\n")
            return ExitCode.stale
        }
        if let maxAge, status.ageDays > maxAge {
            context.console.err(
                "the store is \(status.ageDays) day\(status.ageDays == 1 ? "" : "s") behind, more than --max-age-days \(maxAge)\n"
            )
            return ExitCode.stale
        }
        if maxAge != nil, let incomplete = status.history.incompleteText {
            context.console.err(incomplete + "\n")
            return ExitCode.stale
        }
        if maxAge != nil, let first = status.holes.first {
            context.console.err(
                "the store has \(status.holes.count) hole\(status.holes.count == 1 ? "" : "s") (business days without rates, from \(first)); run 'ecbrates import hist'\n"
            )
            return ExitCode.stale
        }
        return ExitCode.success
    }
}
