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
    public static let abstract = "Show the first, last, lowest, highest and mean rate of a currency, and its change."
    public static var readsRange: Bool { true }
    public static var answerSchema: JSONText { AnswerSchema.stats }

    /// The currency.
    @Field(
        QuestionField(
            name: "currency", kind: .currency, help: "A currency code, like USD.", isRequired: true,
            placement: .argument))
    public var currency: CurrencyCode = .euro
    /// The first day (nil: the first stored).
    @Field(.from("The first day (default: the first stored day).")) public var from: CalendarDay?
    /// The last day (nil: the newest stored).
    @Field(.to) public var to: CalendarDay?
    /// The currency quoted against.
    @Field(.base) public var base: CurrencyCode = .euro
    /// Whether a range the store lacks days of is answered from what it holds.
    @Field(.partial) public var partial = false
    @Field(.asOf) public var asOf: Date?

    public init() {}

    public func check() throws(QuestionRefusal) {
        try Self.checkRange(from: _from, to: _to)
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
