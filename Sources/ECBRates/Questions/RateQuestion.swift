import EurofxrefFeed
import Foundation

/// `rate`: the rate of one or more currencies (or all) on a day.
public struct RateQuestion: Question {
    public static let name = "rate"
    public static let title = "Exchange rates on a day"
    public static let summary = """
        The ECB's euro reference rates of the given currencies (default: all) on a day (default: the newest), \
        against the euro or another base, with the ECB's exact digits. A day without a publication (weekend, \
        TARGET holiday) answers with the fallback's publication (default: the previous one) and says which day \
        it used.
        """
    public static let fields: [QuestionField] = [
        QuestionField(
            name: "currencies", kind: .currencies,
            help: "Currency codes, comma-separated (USD or USD,GBP); all when left out.", placement: .argument,
            aliases: ["currency"]),
        .date, .base, .fallback, .asOf,
    ]
    public static var answerSchema: JSONText { AnswerSchema.rateOrRates }

    /// The currencies (nil: all).
    public var currencies: [String]?
    /// The day (nil: the newest stored).
    public var date: CalendarDay?
    /// The currency quoted against.
    public var base: String
    /// What answers a day without a rate.
    public var fallback: RateFallback
    public var asOf: Date?

    public init(_ input: QuestionInput) {
        currencies = input.currencies("currencies")
        date = input.day("date")
        base = input.currency("base") ?? "EUR"
        fallback = input.choice("fallback", RateFallback.self) ?? .previous
        asOf = input.moment("as_of")
    }

    public var lastDayAsked: CalendarDay? { date }

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<Answer> {
        let answers = try queries.rates(currencies, on: date, base: base, fallback: fallback)
        let stale = date == nil ? Self.staleWarning(queries) : nil
        if currencies?.count == 1, let one = answers.first { return Answered(.one(one), warnings: [stale]) }
        return Answered(.several(RatesAnswer(base: base, rates: answers)), warnings: [stale])
    }

    /// One currency's rate, or several (all) currencies' rates.
    public enum Answer: RenderableAnswer {
        case one(RateAnswer)
        case several(RatesAnswer)

        /// The rates, one or several.
        public var rates: [RateAnswer] {
            switch self {
            case .one(let answer): [answer]
            case .several(let answers): answers.rates
            }
        }

        private var rendering: any RenderableAnswer {
            switch self {
            case .one(let answer): answer
            case .several(let answer): answer
            }
        }
        public var text: String { rendering.text }
        public var json: JSONText { rendering.json }
        public var csvRows: [[String]] { rendering.csvRows }
        public var ndjson: [JSONText] { rendering.ndjson }
    }
}
