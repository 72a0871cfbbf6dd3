/// An example of a command line, for the manual pages' EXAMPLES sections: what to type, what
/// it does, and (for a short answer) what it prints. `ManPageTests` runs every one on a store of
/// the ECB's full history with the ECB's files in the working directory, so none goes stale.
struct CommandExample: Sendable {
    /// The command line, as typed at a shell (`ecbrates rate USD --date 2024-03-28`).
    let line: String
    /// What it does, in a sentence.
    let purpose: String
    /// What it prints on standard output, exactly, when the page shows it.
    var output: String?
    /// For a command that runs until stopped (`serve`, `watch`): it is stopped with SIGTERM
    /// after it started, and must then end with exit 0.
    var runsUntilStopped = false

    /// The examples of `command` (the command's name; nil for ecbrates(1)).
    static func of(_ command: String?) -> [CommandExample] { table[command ?? ""] ?? [] }

    private static let table: [String: [CommandExample]] = [
        "": [
            .init(line: "ecbrates import eurofxref-hist.xml", purpose: "Import the ECB's full history from a file."),
            .init(
                line: "ecbrates rate USD --date 2024-03-28", purpose: "The US dollar's rate per euro on a day.",
                output: "USD 1.0811 on 2024-03-28\n"),
            .init(
                line: "ecbrates convert 100 USD CHF --date 2024-03-28",
                purpose: "Convert 100 US dollars to Swiss francs through the euro.",
                output: "100 USD = 90.33 CHF on 2024-03-28 (1 USD = 0.903339 CHF)\n"),
        ],
        "import": [
            .init(
                line: "ecbrates import",
                purpose:
                    "Fetch the ECB's full history into an empty store, or its 90-day file, if it changed, into one that has rates."
            ),
            .init(line: "ecbrates import eurofxref-hist-90d.xml --quiet", purpose: "Import a file, printing nothing."),
            .init(
                line: "ecbrates import --expect-due --wait 600 --quiet",
                purpose:
                    "For cron or a timer: exit 75 while the ECB has not published the rates due (a holiday has none due, exit 0)."
            ),
        ],
        "validate": [
            .init(
                line: "ecbrates validate eurofxref-daily.xml eurofxref-hist-90d.xml",
                purpose: "Check files without storing them: exit 0 when every one is good ECB data.")
        ],
        "rate": [
            .init(
                line: "ecbrates rate USD --date 2024-03-28", purpose: "One rate per euro on a day.",
                output: "USD 1.0811 on 2024-03-28\n"),
            .init(
                line: "ecbrates rate USD,JPY --date 2024-03-30",
                purpose: "Two rates on a Saturday: the rates of the business day before, saying so.",
                output: "Rates per euro on 2024-03-28 (asked 2024-03-30, a Saturday):\nUSD  1.0811\nJPY  163.45\n"),
            .init(line: "ecbrates rate --format json", purpose: "Every rate of the newest day, as JSON."),
        ],
        "convert": [
            .init(
                line: "ecbrates convert 100 USD CHF --date 2024-03-28",
                purpose: "An amount from one currency to another, through the euro.",
                output: "100 USD = 90.33 CHF on 2024-03-28 (1 USD = 0.903339 CHF)\n"),
            .init(
                line: "ecbrates convert 1000 DEM FRF",
                purpose: "Between two legacy currencies, by the fixed conversion rates of 1999."),
        ],
        "latest": [.init(line: "ecbrates latest --base USD", purpose: "The newest day's rates, per US dollar.")],
        "stats": [
            .init(
                line: "ecbrates stats USD --from 2024-01-01 --to 2024-12-31",
                purpose: "The US dollar's first, last, lowest, highest and mean rate in 2024.")
        ],
        "series": [
            .init(
                line: "ecbrates series USD --from 2024-03-25 --to 2024-03-28", purpose: "The rates day by day.",
                output:
                    "date           USD\n2024-03-25  1.0835\n2024-03-26  1.0855\n2024-03-27  1.0816\n2024-03-28  1.0811\n"
            ),
            .init(
                line: "ecbrates series USD,GBP --from 2020-01-01 --chart",
                purpose: "Two currencies drawn at the terminal."),
        ],
        "currencies": [.init(line: "ecbrates currencies", purpose: "Every currency, with its first and last day.")],
        "export": [
            .init(
                line: "ecbrates export --currencies USD,JPY --from 2024-01-01 > rates-2024.csv",
                purpose: "Rates of two currencies since 2024 as CSV.")
        ],
        "corrections": [.init(line: "ecbrates corrections", purpose: "The corrections the ECB made to stored rates.")],
        "status": [
            .init(line: "ecbrates status", purpose: "Which store, what it holds, and whether it is up to date."),
            .init(
                line: "ecbrates status --max-age-days 1 --quiet || echo 'the rates are behind'",
                purpose: "For monitoring: exit 1 when the store is behind, has holes, or lacks its history's start."),
        ],
        "shell": [
            .init(
                line: "echo 'rate CHF --date 2024-03-28' | ecbrates shell",
                purpose: "Commands read from standard input.",
                output: "CHF 0.9766 on 2024-03-28\n")
        ],
        "watch": [
            .init(
                line: "ecbrates watch USD --format ndjson",
                purpose: "The newest rates, then every day and correction any process imports, as JSON lines.",
                runsUntilStopped: true)
        ],
        "serve": [
            .init(
                line: "ecbrates serve --listen 127.0.0.1:8080",
                purpose: "Answer over HTTP, on loopback: then curl http://127.0.0.1:8080/v1/latest?symbols=USD.",
                runsUntilStopped: true)
        ],
        "mcp": [
            .init(
                line: "ecbrates mcp < /dev/null",
                purpose:
                    "The MCP server on standard input and output, as an assistant starts it; it ends at the end of its input."
            )
        ],
        "man": [.init(line: "ecbrates man rate | man -l -", purpose: "Read a command's page without installing it.")],
        "completions": [
            .init(line: "source <(ecbrates completions bash)", purpose: "Complete ecbrates in this bash session.")
        ],
    ]
}
