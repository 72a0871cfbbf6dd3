import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore
import Synchronization

/// `ecbrates watch`: a long-running front-end that shows the newest day's rates, then every
/// new day and correction as soon as any process's import commits it.
enum WatchCommand: Command {
    static let format = CommonOptions.format([.text, .ndjson])

    static let name = "watch"
    static func runsOnMainThread(_ arguments: ParsedArguments) -> Bool { false }
    static let spec = CommandSpec(
        name: name,
        abstract: "Show the newest day's rates, then each new day and correction as any process imports them.",
        discussion: """
        It follows the store's persistent history: an import by a cron job, another shell or this machine's
        'ecbrates import' shows up here within a fraction of a second of committing (the store is looked at
        every 50 ms, at next to no cost). It reports the rates of days newer than the newest day stored before
        them (a backfill of older days is not news) and every correction. Each line of --format ndjson is an
        event ("rates" or "correction") with the history token of the transaction that brought it; --since
        TOKEN replays what came after that token, --since DAY every day after that day and the corrections
        recorded since, before going on live. SIGINT or SIGTERM ends it (exit 0), saying on standard error the
        token to resume from; a token whose history was purged (after 90 days) is refused (exit 65).
        """,
        arguments: [.init(name: "currencies", help: "Only these currencies (USD,GBP,…); default: all.", optional: true)],
        options: [since.spec, format.spec, CommonOptions.store.spec],
        format: format,
        inShell: false)

    /// Where `--since` starts: a day, or a history token (a transaction number).
    enum Since: Sendable {
        case day(CalendarDay)
        case token(Int64)
    }

    static let since = TypedOption<Since>("--since", value: "token|day", help: "Replay what came after this history token or day first.",
                                          expected: "a history token (a number ecbrates watch printed) or a day as YYYY-MM-DD") { text in
        if let day = CalendarDay(text) { return .day(day) }
        if let number = Int64(text), number >= 0 { return .token(number) }
        return nil
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> Int32 {
        let format = try arguments[Self.format] ?? .text
        let codes = try arguments.positional.first.map { try arguments.currencies(argument: $0, named: "currencies") }
        let since = try arguments[Self.since]
        let url = try context.storeURL(arguments)
        guard FileManager.default.fileExists(atPath: url.path) else { throw NoStoreError(path: url.path) }
        let store = try RatesStore(url: url, readOnly: true, observingOtherProcesses: true)
        let view = store.viewContext
        if let codes {
            try await view.perform { () throws -> Void in
                let queries = RateQueries(context: view)
                for code in codes where code != "EUR" { _ = try queries.knownCurrency(code) }
            }
        }
        let console = context.console
        let stop = ImportInterruption()
        let failure = Mutex<(any Error)?>(nil)
        let watcher = RateWatcher(store: store, currencies: codes.map(Set.init), onError: { error in
            // It cannot go on: it says so and ends (never silently stops reporting).
            failure.withLock { $0 = error }
            stop.request(signal: 0)
        }, emit: { event, token in
            console.out(render(event, token: token, format: format))
        })
        let signals = SignalTrap(interruption: stop)
        defer { signals.restore() }
        try await view.perform { () throws -> Void in
            let start: RateWatcher.Start? = switch since {
            case .day(let day): .day(day)
            case .token(let number): .token(PersistentHistoryToken(transactionNumber: number, storeIdentifier: store.container.persistentStoreCoordinator.persistentStores[0].identifier))
            case nil: nil
            }
            try watcher.start(since: start)
        }
        if console.errorIsTerminal { console.err("watching \(url.path) for new rates (Ctrl-C stops)\n") }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in stop.observe { done.resume() } }
        let token = await view.perform { () -> String in
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

    /// One event as text or as a line of JSON.
    static func render(_ event: RateWatcher.Event, token: PersistentHistoryToken, format: OutputFormat) -> String {
        switch (event, format) {
        case (.rates(let rates), .ndjson):
            return JSONText.object([
                ("event", .string("rates")), ("date", .string(rates.day.description)),
                ("rates", .object(rates.rates.map { ($0.currency, .decimal($0.rate)) })), ("token", .string(token.description)),
            ]).text + "\n"
        case (.correction(let correction), .ndjson):
            return JSONText.object([
                ("event", .string("correction")), ("date", .string(correction.day.description)), ("currency", .string(correction.currency)),
                ("old", .decimal(correction.oldRate)), ("new", .decimal(correction.newRate)), ("source", .string(correction.source)),
                ("token", .string(token.description)),
            ]).text + "\n"
        case (.rates(let rates), _):
            let table = TextTable.render(rates.rates.map { [$0.currency, NumberText.exact($0.rate)] }, rightAligned: [1])
            return "Rates per euro on \(rates.day):\n" + table
        case (.correction(let correction), _):
            return "Correction: \(correction.currency) on \(correction.day) is \(NumberText.exact(correction.newRate)), was \(NumberText.exact(correction.oldRate)) (\(correction.source))\n"
        }
    }
}
