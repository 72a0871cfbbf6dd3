import EurofxrefFeed
import Foundation

/// A question the store cannot answer, and why.
public enum QueryError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The store has no rates at all.
    case emptyStore
    /// A currency the store has never held; with the near matches.
    case unknownCurrency(String, suggestions: [String])
    /// A day before the first stored day; `gap` says how the store's history is incomplete when
    /// the day is one it should hold (``HistoryCoverage/gapText``).
    case beforeFirstDay(asked: CalendarDay, first: CalendarDay, last: CalendarDay, gap: String? = nil)
    /// A day that has not come yet.
    case futureDay(asked: CalendarDay, newest: CalendarDay)
    /// A day after the newest stored day, with a business day between whose rates should be out.
    case staleStore(asked: CalendarDay, newest: CalendarDay, missing: CalendarDay)
    /// No rate for the currency on (or, with a fallback, near) the day; when it was quoted last
    /// before and next after.
    case notQuoted(
        currency: String, day: CalendarDay, lastBefore: CalendarDay?, nextAfter: CalendarDay?, why: String? = nil)
    /// `next` or `interpolate` on a day after the newest stored one: no later rate is out yet.
    case notYetPublished(currency: String, day: CalendarDay, newest: CalendarDay)
    /// An amount too large to compute with exactly (more than 38 significant digits on the way).
    case inexact(String)
    /// A conversion whose rounded result needs more digits than are computed exactly (38);
    /// `most` is the most decimal places that fit, if any do.
    case tooManyDigits(conversion: String, places: Int, most: Int?)
    /// A range of days that reaches business days whose rates should be out but are not stored.
    case incompleteRange(from: CalendarDay, to: CalendarDay, missing: [CalendarDay])
    /// No rate on the day itself, with `--fallback none`.
    case noRateOnDay(currency: String, day: CalendarDay, reason: String)
    /// No rates in a range of days.
    case noRatesInRange(currencies: [String], from: CalendarDay, to: CalendarDay)
    /// A business day inside the stored range without any rates: the store lacks it (an import
    /// left a hole), which is not the same as the ECB publishing nothing.
    case hole(day: CalendarDay, asked: CalendarDay)
    /// `--as-of` a moment while an import that changed the store was running: its chunks
    /// committed one by one, and when each did is not recorded.
    case asOfDuringImport(moment: Date, source: String, started: Date, ended: Date?)
    /// `--as-of` a moment before the store recorded when rates arrived (a store written by an
    /// earlier release, which knows only its state after its last import).
    case asOfBeforeRecord(moment: Date, since: Date)
    /// `--as-of` a moment that has not come yet.
    case asOfFuture(moment: Date, now: Date)
    /// `--as-of` a moment before the store's first import ended: it held nothing then.
    case asOfBeforeFirstImport(moment: Date, source: String, ended: Date)

    /// The words for a Swift program's user: advice names ``RateQueries``' parameters
    /// (`fallback: .previous`); each door asks ``message(for:)`` with its own spelling.
    public var description: String { message(for: .swift) }

    /// The words for people, with any advice spelled as `door` spells it (`--partial`,
    /// `partial=true`, `"partial": true`).
    public func message(for door: Door) -> String {
        switch self {
        case .emptyStore:
            return "the store has no rates yet; run 'ecbrates import' first"
        case .unknownCurrency(let code, let suggestions):
            // A currency the euro replaced that the store never held (GRD: the ECB's files do
            // not have it): its reason, not just "unknown".
            // A currency the euro replaced: its fixed conversion rate, which rate and convert use.
            let fixed = EuroConversionRate.of(code).map { rate in
                "; its conversion rate is fixed at \(rate.text) per euro since \(rate.since), which 'rate' and 'convert' use"
            }
            if let end = CurrencyLifecycle.known.first(where: { $0.currency == code && $0.through == nil }) {
                return
                    "no rates of \(code) in the store: \(end.why), and the ECB's reference rates here do not include it"
                    + (fixed ?? "")
            }
            if let fixed, let rate = EuroConversionRate.of(code) {
                return "no ECB reference rates of \(code) (the \(rate.name)) in the store\(fixed)"
            }
            var text = "unknown currency '\(code)'"
            if !suggestions.isEmpty {
                text += ". Did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
            }
            return text
        case .beforeFirstDay(let asked, let first, let last, let gap):
            let text = "no rates before \(first): the store holds \(first)..\(last) (asked \(asked))"
            return gap.map { text + "; the store's history is incomplete: " + $0 } ?? text
        case .futureDay(let asked, let newest):
            return "\(asked) has not come yet; the newest rates are of \(newest)"
        case .staleStore(let asked, let newest, let missing):
            return
                "the store is out of date: its newest day is \(newest), but the rates of \(missing) (a business day) should be out; "
                + "run 'ecbrates import' before asking for \(asked)"
        case .notQuoted(let currency, let day, let before, let after, let why):
            var text = "\(currency) has no rate on \(day)"
            if let why { text += ": \(why)" }
            let lead = why == nil ? ": it" : "; \(currency)"
            switch (before, after) {
            case let (before?, after?): text += "\(lead) was last quoted on \(before), and next on \(after)"
            case let (before?, nil): text += "\(lead) was last quoted on \(before), and not since"
            case let (nil, after?): text += "\(lead) was first quoted on \(after)"
            case (nil, nil): text += ""
            }
            return text
        case .notYetPublished(let currency, let day, let newest):
            return
                "no \(currency) rate after \(day) is out yet (the newest is of \(newest)), so there is nothing to take the next rate "
                + "from or interpolate towards; \(door.spell(.fallback, "previous")) takes the newest"
        case .inexact(let operation):
            return
                "cannot compute \(operation) exactly: an amount may have at most \(DecimalMath.amountDigits) significant digits"
        case .tooManyDigits(let conversion, let places, let most):
            let advice = most.map { "ask for at most \($0) decimal places" } ?? "convert a smaller amount"
            return
                "\(conversion) to \(places) decimal places needs more than 38 significant digits, the most ecbrates computes exactly; \(advice)"
        case .incompleteRange(let from, let to, let missing):
            let days =
                missing.count == 1
                ? "\(missing[0])" : "\(missing.count) business days (\(missing[0])..\(missing[missing.count - 1]))"
            return "the store lacks the rates of \(days) between \(from) and \(to), which the ECB has published; "
                + "run 'ecbrates import' (or 'ecbrates import hist' for days inside the store), or pass \(door.spell(.partial)) to accept what is stored"
        case .noRateOnDay(let currency, let day, let reason):
            return
                "no \(currency) rate on \(day) (\(reason)); \(door.spell(.fallback, oneOf: ["previous", "next", "nearest", "interpolate"])) gives one from a day near it"
        case .noRatesInRange(let currencies, let from, let to):
            if currencies.isEmpty {
                return from == to ? "no rates on or near \(from)" : "no rates from \(from) to \(to)"
            }
            return "no rates for \(currencies.joined(separator: ", ")) from \(from) to \(to)"
        case .asOfDuringImport(let moment, let source, let started, let ended):
            let until = ended.map { "until \(Self.timestamp($0))" } ?? "and did not finish"
            return
                "at \(Self.timestamp(moment)) an import (\(source)) was storing rates: it ran from \(Self.timestamp(started)) \(until), "
                + "and when each of its days arrived is not recorded; ask as of a moment before or after it"
        case .asOfFuture(let moment, let now):
            return
                "\(Self.timestamp(moment)) is in the future (it is \(Self.timestamp(now)) now): the store cannot say what it will hold then"
        case .asOfBeforeFirstImport(let moment, let source, let ended):
            return
                "the store held nothing at \(Self.timestamp(moment)): its first import (\(source)) ended at \(Self.timestamp(ended))"
        case .asOfBeforeRecord(let moment, let since):
            return
                "the store cannot say what it held at \(Self.timestamp(moment)): it was written by an earlier release, which did not record "
                + "when rates arrived, so its record starts at \(Self.timestamp(since)) (the end of the last import before the upgrade)"
        case .hole(let day, let asked):
            let which = day == asked ? "" : " (needed to answer for \(asked))"
            return
                "the store lacks the rates of \(day)\(which), a TARGET business day inside the days it holds: an import left a hole there, "
                + "the ECB did publish; fill it with 'ecbrates import hist' (the full history)"
        }
    }

    /// A moment as the answers give it: `2026-10-01T17:00:02Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    public var errorDescription: String? { description }

    /// The failure's kind as a stable, machine-readable word (`unknown-currency`, `hole`, …):
    /// what a program tests rather than the message, which is for people.
    public var code: String {
        switch self {
        case .emptyStore: "empty-store"
        case .unknownCurrency: "unknown-currency"
        case .beforeFirstDay: "before-first-day"
        case .futureDay: "future-day"
        case .staleStore: "stale-store"
        case .notQuoted: "not-quoted"
        case .notYetPublished: "not-yet-published"
        case .inexact: "inexact"
        case .tooManyDigits: "too-many-digits"
        case .incompleteRange: "incomplete-range"
        case .noRateOnDay: "no-rate-on-day"
        case .noRatesInRange: "no-rates-in-range"
        case .hole: "hole"
        case .asOfDuringImport: "as-of-during-import"
        case .asOfBeforeRecord: "as-of-before-record"
        case .asOfFuture: "as-of-future"
        case .asOfBeforeFirstImport: "as-of-before-first-import"
        }
    }

    /// True when the question itself is wrong (an unknown currency): a usage error. A moment
    /// to come (`--as-of`) is not: the question is well formed, and the store cannot answer
    /// it yet, as for a day to come.
    public var isUsageError: Bool {
        if case .unknownCurrency = self { return true }
        return false
    }
}
