import ECBRates
import ECBRatesServer
import Foundation

/// `ecbrates mcp`: the store's rates for AI assistants, over the Model Context Protocol on stdio.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "mcp",
        abstract: "Answer rate queries for AI assistants over MCP (the Model Context Protocol, on stdio).",
        discussion: """
            For AI assistants: an MCP client starts 'ecbrates mcp' and calls its tools, one per question:
              \(toolNames).
            Their arguments are those of the /api/ endpoints of 'ecbrates serve', and their answers the same
            JSON, exact to the digit. Each call reads the store as it stands (an import by cron shows in the
            next call). Ends when standard input closes.
            """)

    /// The tools, one per question (`rate, convert, … and status`): made from the questions, so that
    /// help and the manual page list what `tools/list` does.
    static var toolNames: String {
        let names = Questions.all.map { $0.name }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }

    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { nil }
    var runsOnMainThread: Bool { false }

    func run(_ context: CommandContext) async throws -> Int32 {
        let location = context.storeLocation(self.store)
        let store = try RatesStore.forQueries(at: location.url)
        let server = MCPServer(store: store, storeLocation: location, version: CLI.version, clock: { context.now })
        let console = context.console
        server.serve(readLine: { Swift.readLine(strippingNewline: true) }, write: { console.data($0) })
        try console.checkOutput()
        return ExitCode.success
    }
}
