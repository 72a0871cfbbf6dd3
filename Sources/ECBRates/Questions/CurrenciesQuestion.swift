import Foundation

/// `currencies`: every currency the store holds, with its first and last day.
public struct CurrenciesQuestion: Question {
    public static let name = "currencies"
    public static let title = "Currencies in the store"
    public static let summary =
        "Every currency the store holds rates of, with its first and last day and its count of rates."
    public static let abstract = "List the currencies in the store, with their first and last day and count of rates."
    public static var answerSchema: JSONText { AnswerSchema.currencies }

    public init() {}

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<CurrencyList> {
        Answered(CurrencyList(try queries.currencies()))
    }
}
