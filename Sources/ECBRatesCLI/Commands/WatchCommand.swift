import ECBRates
import EurofxrefFeed
import Foundation
import Synchronization

/// `ecbrates watch`: a long-running front-end that shows the newest day's rates, then every
/// new day and correction as soon as any process's import commits it.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "watch",
        abstract: "Show the newest day's rates, then each new day and correction as any process imports them.",
        discussion: """
            It follows the store's persistent history: an import by a cron job, another shell or this machine's
            'ecbrates import' shows up here within a fraction of a second of committing (the store is looked at
            every 50 ms, at next to no cost). It reports the rates of every day an import stores (older days
            filled in later too, each under its own day) and every correction. Each line of --format ndjson is an
            event ("rates" or "correction") with the history token of the transaction that brought it; --since
            TOKEN replays what came after that token, --since DAY every day after that day and the corrections
            recorded since (read from the store as it is, so each carries the store's token of that moment: the
            transactions that brought them may be long purged), before going on live. SIGINT or SIGTERM ends it
            (exit 0), saying on standard error the token to resume from; a token whose history was purged (after
            90 days) is refused (exit 65).
            """,
        inShell: false)

    /// Where `--since` starts: a day, or a history token (a transaction number).
    enum Since: Sendable {
        case day(CalendarDay)
        case token(Int64)
    }

    @OptionalArgument(.currencies("currencies", help: "Only these currencies (USD,GBP,…); default: all."))
    var currencies: [CurrencyCode]?
    @Option(
        OptionSpec<Since>(
            "--since", value: "token|day", help: "Replay what came after this history token or day first.",
            expected: "a history token (a number ecbrates watch printed) or a day as YYYY-MM-DD"
        ) { text in
            if let day = CalendarDay(text) { return .day(day) }
            if let number = Int64(text), number >= 0 { return .token(number) }
            return nil
        })
    var since: Since?
    @Option(CommonOptions.format([.text, .ndjson]), default: .text) var format: OutputFormat
    @Option(CommonOptions.store) var store: String?

    var outputFormat: OutputFormat? { format }
    var stopsPolitelyOnSignals: Bool { true }
    var runsOnMainThread: Bool { false }

    func run(_ context: CommandContext) async throws -> Int32 {
        let (codes, since, format) = (currencies, since, format)
        let url = context.storeURL(self.store)
        let store = try RatesStore.forQueries(at: url, observingOtherProcesses: true)
        if let reason = store.unseenChangesReason {
            // It shows the store as it is and goes on (a signal ends it), never claiming to watch.
            context.console.err("warning: \(reason): watch shows the store as it is and will report no new day\n")
        }
        if let codes {
            try await store.read { queries in
                for code in codes where !code.isEuro { _ = try queries.knownCurrency(code) }
            }
        }
        let console = context.console
        let stop = ImportInterruption()
        let failure = Mutex<(any Error)?>(nil)
        let watcher = RateWatcher(
            store: store, currencies: codes.map { Set($0.map(\.text)) },
            onError: { error in
                // It cannot go on: it says so and ends (never silently stops reporting).
                failure.withLock { $0 = error }
                stop.request(signal: 0)
            },
            emit: { event, token in
                console.out(WatchEvent(event, token: token.description).rendered(as: format))
            })
        let signals = SignalTrap.attach(stop)
        defer { signals.release() }
        try await store.performOnMainContext { () throws -> Void in
            let start: RateWatcher.Start? =
                switch since {
                case .day(let day): .day(day)
                case .token(let number): .token(store.historyToken(transactionNumber: number))
                case nil: nil
                }
            try watcher.start(since: start)
        }
        if console.errorIsTerminal { console.err("watching \(url.path) for new rates (Ctrl-C stops)\n") }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in stop.observe { done.resume() } }
        let token = try await store.performOnMainContext { () -> String in
            let token = watcher.token.map(\.description) ?? ""
            watcher.stop()
            return token
        }
        if let error = failure.withLock({ $0 }) {
            console.err("stopped; resume with --since \(token)\n")
            throw error
        }
        console.err("stopped; resume with --since \(token)\n")
        return ExitCode.success
    }
}
