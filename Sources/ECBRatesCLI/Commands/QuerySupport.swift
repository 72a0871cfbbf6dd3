import ECBRates
import EurofxrefFeed
import Foundation

/// What the query commands share: opening the store, asking it on its main context, warnings.
enum QuerySupport {
    /// The store a query command reads: the shell's, else the one `--store` names (or the
    /// default), opened read-only; a missing one is an error that says what to do.
    static func openStore(_ path: String?, context: CommandContext) throws -> RatesStore {
        if let shared = context.sharedStore { return shared }
        return try RatesStore.forQueries(at: context.storeURL(path))
    }

    /// The store a query with `--as-of` answers from: the store as it was at that moment
    /// (see ``RatesStore/asOf(_:)``), and the answer written in `format` says so; without
    /// `--as-of`, the store itself.
    ///
    /// With `oneGeneration`, for a command that reads in many queries (a series, an export), the
    /// main context is pinned to the store's current query generation: the whole answer comes
    /// from one state of the store, whatever an import in another process commits meanwhile.
    static func openStore(
        _ path: String?, asOf moment: Date?, context: CommandContext, answering format: OutputFormat,
        oneGeneration: Bool = false
    ) throws -> RatesStore {
        let store = try openStore(path, context: context)
        guard let moment else {
            if oneGeneration && context.sharedStore == nil { try store.pinCurrentQueryGeneration() }
            return store
        }
        let snapshot = try store.asOf(moment)
        AsOfStamp.stamp(context.console, moment: snapshot.asOf ?? moment, format: format)
        return snapshot
    }

    /// The question of `input`: a refusal is a usage error of the command that asked it, in the
    /// command line's words.
    static func question<Q: Question>(_: Q.Type, _ input: QuestionInput) throws -> Q {
        try fields(Q.self, input, command: Q.name)
    }

    /// The fields of `input` as a `Q` (an export's): a refusal is a usage error of `command`.
    static func fields<Q: FieldSet>(_: Q.Type, _ input: QuestionInput, command: String) throws -> Q {
        do {
            return try Q.asking(input)
        } catch {
            throw UsageError(error.message(for: .commandLine), command: command, code: error.code)
        }
    }

    /// Asks `question` of the store (as of its `as_of`, stamped for `format`) on its main
    /// context; its warnings are printed, and kept for the JSON answer.
    static func answer<Q: Question>(
        _ question: Q, store path: String?, context: CommandContext, answering format: OutputFormat,
        oneGeneration: Bool = false
    ) async throws -> Q.Answer {
        let store = try openStore(
            path, asOf: question.asOf, context: context, answering: format, oneGeneration: oneGeneration)
        let asked = QuestionContext(store: store.url, storeLocation: context.storeLocation(path))
        let answered = try await ask(store, context: context) { try question.answered($0, context: asked) }
        for warning in answered.warnings { context.warn(warning) }
        return answered.answer
    }

    /// Runs `body` with queries on the store's main context, on the main queue.
    static func ask<T: Sendable>(
        _ store: RatesStore, context: CommandContext,
        _ body: @escaping @Sendable (RateQueries) throws -> T
    ) async throws -> T {
        try await store.read(now: context.now, body)
    }

    /// Warns when an answer given with `--partial` lacks days.
    static func warnIncomplete(_ missing: [CalendarDay], context: CommandContext) {
        context.warn(.incompleteAnswer(missing: missing))
    }

    /// Warns when the store lacks business days whose rates are out.
    static func warnIfStale(_ store: RatesStore, context: CommandContext) async {
        guard let (last, missing) = try? await ask(store, context: context, { try $0.missingBusinessDays() }) else {
            return
        }
        context.warn(.staleStore(newest: last, missing: missing))
    }
}
