import EurofxrefFeed
import Foundation

/// `convert`: an amount from one currency into another, through the euro.
public struct ConvertQuestion: Question {
    public static let name = "convert"
    public static let title = "Convert an amount"
    public static let summary = """
        Converts an amount from one currency to another at the ECB's reference rate of a day (default: the \
        newest), exactly (or refused when it cannot be exact), saying which publication it used.
        """
    public static let fields: [QuestionField] = [
        QuestionField(
            name: "amount", kind: .amount, help: "The amount, like 100, 12.50 or -3.10.", isRequired: true,
            placement: .argument),
        QuestionField(
            name: "from", kind: .currency, help: "The currency of the amount.", isRequired: true, placement: .argument),
        QuestionField(
            name: "to", kind: .currency, help: "The currency to convert into.", isRequired: true, placement: .argument,
            example: "JPY"),
        QuestionField(
            name: "date", kind: .day, help: "The day of the rate (YYYY-MM-DD; default: the newest stored day)."),
        QuestionField(
            name: "precision", kind: .count(minimum: 0, maximum: ConversionAnswer.maximumPrecision),
            help: "Decimal places of the result, up to 20 (default: the currency's minor units)."),
        .fallback, .asOf,
    ]
    public static var answerSchema: JSONText { AnswerSchema.conversion }

    /// The amount and its text as given.
    public var amount: (value: Decimal, text: String)
    /// The currency of the amount.
    public var from: String
    /// The currency to convert into.
    public var to: String
    /// The day of the rate (nil: the newest stored).
    public var date: CalendarDay?
    /// Decimal places of the result (nil: the currency's minor units).
    public var precision: Int?
    /// What answers a day without a rate.
    public var fallback: RateFallback
    public var asOf: Date?

    public init(_ input: QuestionInput) {
        amount = input.amount("amount") ?? (0, "0")
        from = input.currency("from") ?? "EUR"
        to = input.currency("to") ?? "EUR"
        date = input.day("date")
        precision = input.count("precision")
        fallback = input.choice("fallback", RateFallback.self) ?? .previous
        asOf = input.moment("as_of")
    }

    public var lastDayAsked: CalendarDay? { date }

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<ConversionAnswer> {
        var answer = try queries.convert(
            amount.value, from: from, to: to, on: date, fallback: fallback, precision: precision)
        answer.amountText = amount.text
        return Answered(answer, warnings: [date == nil ? Self.staleWarning(queries) : nil])
    }
}
