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
    public static let abstract = "Convert an amount between two currencies (EUR included), through the euro."
    public static let discussion: String? = """
        Computed in decimal from the published rates, with no rounding on the way; the result is rounded once,
        half away from zero, to the target currency's minor units (2 for USD, 0 for JPY) unless --precision.

        With --input, every row of a CSV file is converted on its own day: the header names date, amount, from
        and to columns (in any order, among others), separated by commas, semicolons or tabs (found in the
        header, and said when not commas; --delimiter chooses); the output is the same rows plus rate, rate_day
        and result, with the same separator, streamed in constant memory. Amounts are read as 1234.56 unless
        --number-format names their form (1,234.56, 1.234,56, …); one that could be read two ways is refused.
        A bad row stops the batch with its line number (exit 65), unless --skip-bad-rows. --output writes the
        result whole or not at all.
        """
    public static var answerSchema: JSONText { AnswerSchema.conversion }

    /// The amount and its text as given.
    @Field(
        QuestionField(
            name: "amount", kind: .amount, help: "The amount, like 100, 12.50 or -3.10.", isRequired: true,
            placement: .argument))
    public var amount = GivenAmount(value: 0, text: "0")
    /// The currency of the amount.
    @Field(
        QuestionField(
            name: "from", kind: .currency, help: "The currency of the amount.", isRequired: true, placement: .argument))
    public var from: CurrencyCode = .euro
    /// The currency to convert into.
    @Field(
        QuestionField(
            name: "to", kind: .currency, help: "The currency to convert into.", isRequired: true, placement: .argument,
            example: "JPY"))
    public var to: CurrencyCode = .euro
    /// The day of the rate (nil: the newest stored).
    @Field(
        QuestionField(
            name: "date", kind: .day, help: "The day of the rate (YYYY-MM-DD; default: the newest stored day)."))
    public var date: CalendarDay?
    /// Decimal places of the result (nil: the currency's minor units).
    @Field(precisionField) public var precision: Int?
    /// What answers a day without a rate.
    @Field(.fallback) public var fallback: RateFallback = .previous
    @Field(.asOf) public var asOf: Date?

    public init() {}

    /// `precision`, which a batch of conversions takes too (``ConvertBatch``).
    public static let precisionField = QuestionField(
        name: "precision", kind: .count(minimum: 0, maximum: ConversionAnswer.maximumPrecision),
        help: "Decimal places of the result, up to 20 (default: the currency's minor units).")

    public var lastDayAsked: CalendarDay? { date }

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<ConversionAnswer> {
        var answer = try queries.convert(
            amount.value, from: from, to: to, on: date, fallback: fallback, precision: precision)
        answer.amountText = amount.text
        return Answered(answer, warnings: [date == nil ? Self.staleWarning(queries) : nil])
    }
}
