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
    public static let abstract = "Show the rate of one or more currencies (or all) on a day (default: the newest)."
    public static let discussion: String? = """
        Rates are units of the currency per euro (or per --base). A day without a rate (a weekend, a
        TARGET holiday) takes the rate of the ECB's publication before it, within 14 days, and says so;
        --fallback changes that, for each currency on its own. A currency the euro replaced (or the ECB
        suspended) has no rate after its end, and no fallback crosses it. Published rates are shown as
        the ECB wrote them; cross and interpolated rates to 6 significant digits (20 in JSON and CSV).
        """
    public static var answerSchema: JSONText { AnswerSchema.rateOrRates }

    /// The currencies (nil: all).
    @Field(
        QuestionField(
            name: "currencies", kind: .currencies,
            help: "Currency codes, comma-separated (USD or USD,GBP); all when left out.", placement: .argument,
            aliases: ["currency"]))
    public var currencies: [CurrencyCode]?
    /// The day (nil: the newest stored).
    @Field(.date) public var date: CalendarDay?
    /// The currency quoted against.
    @Field(.base) public var base: CurrencyCode = .euro
    /// What answers a day without a rate.
    @Field(.fallback) public var fallback: RateFallback = .previous
    @Field(.asOf) public var asOf: Date?

    public init() {}

    public var lastDayAsked: CalendarDay? { date }

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<Answer> {
        let answers = try queries.rates(currencies, on: date, base: base, fallback: fallback)
        let stale = date == nil ? Self.staleWarning(queries) : nil
        if currencies?.count == 1, let one = answers.first { return Answered(.one(one), warnings: [stale]) }
        return Answered(.several(RatesAnswer(base: base.text, rates: answers)), warnings: [stale])
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
