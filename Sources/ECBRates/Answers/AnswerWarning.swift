import EurofxrefFeed

/// Something an answer's reader must know although the answer stands: the store is out of
/// date, the answer lacks days (`--partial`), a currency asked for is left out. People read it
/// on standard error (`warning: …`); under `--format json` it is also in the answer's
/// `warnings` array, as `{"code","message"}`, so that a program sees it with the answer.
public struct AnswerWarning: Sendable, Equatable {
    /// A stable word a program tests: `stale-store`, `incomplete-answer`, `missing-currency`,
    /// `skipped-rows`, `large-answer`.
    public let code: String
    /// The sentence for people.
    public let message: String

    /// A warning with its `code` and `message`.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The store's newest day is `newest`, and the rates of `missing` (business days after it)
    /// are out.
    public static func staleStore(newest: CalendarDay, missing: [CalendarDay]) -> AnswerWarning? {
        guard let first = missing.first else { return nil }
        let count = missing.count
        return AnswerWarning(
            code: "stale-store",
            message:
                "the store's newest day is \(newest), but the rates of \(count) business day\(count == 1 ? "" : "s") since (from \(first)) are out; run 'ecbrates import'"
        )
    }

    /// An answer given with `--partial` lacks the rates of `missing`, which the ECB published.
    public static func incompleteAnswer(missing: [CalendarDay]) -> AnswerWarning? {
        guard let first = missing.first, let last = missing.last else { return nil }
        let days = missing.count == 1 ? "\(first)" : "\(missing.count) business days (\(first)..\(last))"
        return AnswerWarning(
            code: "incomplete-answer",
            message: "the answer is incomplete: the store lacks the rates of \(days), which the ECB has published")
    }

    /// Past this many rates (days × currencies) an ungrouped series says how to ask a smaller
    /// one: about 20 years of one currency, or 6 months of all of them.
    public static let largeSeriesRates = 5_000

    /// An ungrouped series of `days` rows and `currencies` columns, when it holds more than
    /// ``largeSeriesRates`` rates: how to ask for less (a model's context, a page, a person).
    public static func largeAnswer(days: Int, currencies: Int) -> AnswerWarning? {
        let rates = days * currencies
        guard rates > largeSeriesRates else { return nil }
        return AnswerWarning(
            code: "large-answer",
            message:
                "the answer holds \(rates) rates (\(days) days × \(currencies) currenc\(currencies == 1 ? "y" : "ies")); grouped by week, month or year, or over a shorter range, it is smaller"
        )
    }

    /// The warning as the JSON answers carry it.
    public var json: JSONText { .object([("code", .string(code)), ("message", .string(message))]) }
}

extension RenderableAnswer {
    /// The answer written in `format`, with `warnings`: under JSON, an answer that is an object
    /// gains a `warnings` array (only when there are any); other formats are as
    /// ``rendered(as:)`` writes them (their warnings are on standard error only).
    public func rendered(as format: OutputFormat, warnings: [AnswerWarning]) -> String {
        guard format == .json, !warnings.isEmpty, case .object(let pairs) = json else { return rendered(as: format) }
        return JSONText.object(pairs + [("warnings", .array(warnings.map(\.json)))]).text + "\n"
    }
}
