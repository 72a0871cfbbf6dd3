import EurofxrefFeed
import Foundation

/// `stats`: a currency's first, last, lowest, highest and mean rate over a range, and its change.
public struct StatsQuestion: Question {
    public static let name = "stats"
    public static let title = "Figures of a currency over a range"
    public static let summary = """
        The first, last, lowest, highest and mean rate of a currency from one day to another (default: the whole \
        history), and its change. A range that reaches business days whose rates are out but not stored is \
        refused, unless partial.
        """
    public static let fields: [QuestionField] = [
        QuestionField(
            name: "currency", kind: .currency, help: "A currency code, like USD.", isRequired: true,
            placement: .argument),
        .from("The first day (default: the first stored day)."), .to, .base, .partial, .asOf,
    ]
    public static var answerSchema: JSONText { AnswerSchema.stats }

    /// The currency.
    public var currency: String
    /// The first day (nil: the first stored).
    public var from: CalendarDay?
    /// The last day (nil: the newest stored).
    public var to: CalendarDay?
    /// The currency quoted against.
    public var base: String
    /// Whether a range the store lacks days of is answered from what it holds.
    public var partial: Bool
    public var asOf: Date?

    public init(_ input: QuestionInput) throws(QuestionRefusal) {
        currency = input.currency("currency") ?? ""
        from = input.day("from")
        to = input.day("to")
        base = input.currency("base") ?? "EUR"
        partial = input.flag("partial")
        asOf = input.moment("as_of")
        try Self.checkRange(from: from, to: to)
    }

    public var lastDayAsked: CalendarDay? { to }

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<RateStats> {
        let bounds = try queries.bounds()
        let stats = try queries.stats(
            currency, from: from ?? bounds.first, to: to ?? bounds.last, base: base, partial: partial)
        return Answered(
            stats,
            warnings: [.incompleteAnswer(missing: stats.missing), to == nil ? Self.staleWarning(queries) : nil])
    }
}
