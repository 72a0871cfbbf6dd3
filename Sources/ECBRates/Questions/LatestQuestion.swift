import EurofxrefFeed
import Foundation

/// `latest`: all rates of the newest day (or of a day); a currency asked for that has no rate
/// that day is named in a warning and left out.
public struct LatestQuestion: Question {
    public static let name = "latest"
    public static let title = "The newest rates"
    public static let summary = """
        All rates of the newest publication (or of a day), per euro or another base; a currency asked for that \
        has no rate that day is named in a warning and left out.
        """
    public static let abstract = "Show all rates of the newest stored day (or of --date), per euro or per --base."
    public static let discussion: String? =
        "A currency asked for with --currencies that has no rate that day is named in a warning and left out."
    public static var answerSchema: JSONText { AnswerSchema.rates }

    /// Only these currencies (nil: all).
    @Field(QuestionField(name: "currencies", kind: .currencies, help: "Only these currencies (USD,JPY,…)."))
    public var currencies: [CurrencyCode]?
    /// The day (nil: the newest stored).
    @Field(.date) public var date: CalendarDay?
    /// The currency quoted against.
    @Field(.base) public var base: CurrencyCode = .euro
    @Field(.asOf) public var asOf: Date?

    public init() {}

    public var lastDayAsked: CalendarDay? { date }

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<RatesAnswer> {
        var answers: [RateAnswer] = [], missing: [QueryError] = []
        if let currencies {
            for code in currencies {
                do {
                    answers += try queries.rates([code], on: date, base: base)
                } catch let error as QueryError {
                    guard case .notQuoted = error else { throw error }
                    missing.append(error)
                }
            }
            // None of them has a rate: that is no answer at all.
            if answers.isEmpty, let first = missing.first { throw first }
        } else {
            answers = try queries.rates(on: date, base: base)
        }
        let stale = date == nil ? Self.staleWarning(queries) : nil
        return Answered(
            RatesAnswer(base: base.text, rates: answers),
            warnings: [stale] + missing.map { AnswerWarning(code: "missing-currency", message: $0.description) })
    }
}
