import ECBRates
import EurofxrefFeed
import Foundation
import ManagedStore

/// What the query commands share: opening the store, running on the main context, formats.
enum QuerySupport {
    /// The store a query command reads, opened read-only (a query never writes, so it works on
    /// a read-only store, and beside an import); a missing one is an error that says what to do.
    static func openStore(_ arguments: ParsedArguments, context: CommandContext) throws -> RatesStore {
        if let shared = context.sharedStore { return shared }
        let url = try context.storeURL(arguments)
        guard FileManager.default.fileExists(atPath: url.path) else { throw NoStoreError(path: url.path) }
        return try RatesStore(url: url, readOnly: true)
    }

    /// The store a query with `--as-of` answers from: the store as it was at that moment
    /// (see ``RatesStore/asOf(_:)``), and the answer written in `format` says so; without
    /// `--as-of`, the store itself.
    ///
    /// With `oneGeneration`, for a command that reads in many queries (a series, an export), the
    /// main context is pinned to the store's current query generation: the whole answer comes
    /// from one state of the store, whatever an import in another process commits meanwhile.
    static func openStore(_ arguments: ParsedArguments, context: CommandContext, answering format: OutputFormat,
                          oneGeneration: Bool = false) throws -> RatesStore {
        let store = try openStore(arguments, context: context)
        guard let moment = try arguments[CommonOptions.asOf] else {
            if oneGeneration && context.sharedStore == nil {
                let view = store.viewContext
                try view.performAndWait { try view.setQueryGenerationFrom(.current) }
            }
            return store
        }
        let snapshot = try store.asOf(moment)
        AsOfMoment.stamp(context.console, moment: moment, format: format)
        return snapshot
    }

    /// Runs `body` with queries on the store's main context, on the main queue.
    static func ask<T: Sendable>(_ store: RatesStore, context: CommandContext,
                                 _ body: @escaping @Sendable (RateQueries) throws -> T) async throws -> T {
        let view = store.viewContext
        let now = store.asOf ?? context.now
        return try await view.perform { () throws -> T in try body(RateQueries(context: view, now: { now })) }
    }

    /// Warns on standard error when an answer given with `--partial` lacks days.
    static func warnIncomplete(_ missing: [CalendarDay], context: CommandContext) {
        guard let first = missing.first, let last = missing.last else { return }
        let days = missing.count == 1 ? "\(first)" : "\(missing.count) business days (\(first)..\(last))"
        context.console.err("warning: the answer is incomplete: the store lacks the rates of \(days), which the ECB has published\n")
    }

    /// Warns on standard error when the store lacks business days whose rates are out.
    static func warnIfStale(_ store: RatesStore, context: CommandContext) async {
        guard let (last, missing) = try? await ask(store, context: context, { try $0.missingBusinessDays() }),
              let first = missing.first else { return }
        let count = missing.count
        context.console.err("warning: the store's newest day is \(last), but the rates of \(count) business day\(count == 1 ? "" : "s") since (from \(first)) are out; run 'ecbrates import'\n")
    }
}

/// A query command run before any import.
struct NoStoreError: Error, Sendable, CustomStringConvertible {
    let path: String
    var description: String { "no store at \(path); run 'ecbrates import' first" }
}

/// Columns of text, aligned: numbers to the right, words to the left.
enum TextTable {
    static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: width)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            let line = row.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? pad + cell : (index == row.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n") + "\n"
    }
}
