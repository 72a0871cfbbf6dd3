import EurofxrefFeed
import Foundation

/// `corrections`: the corrections imports made to rates already stored, newest first.
public struct CorrectionsQuestion: Question {
    public static let name = "corrections"
    public static let title = "Corrections of published rates"
    public static let summary = """
        The corrections the ECB made to rates already stored, newest first: the day, the currency, the old and \
        new value, and the import that recorded it.
        """
    public static let abstract = "List the corrections the ECB made to rates already stored, newest first."
    public static let discussion: String? = """
        An import that finds a stored rate published again with another value stores the new value and
        records the correction: the day, the currency, the old and new value, and the import that made
        it. 'ecbrates rate --as-of <time>' answers with the values from before a correction. A store
        written by a release before corrections were recorded lists those made since it was upgraded.
        """
    public static var answerSchema: JSONText { AnswerSchema.corrections }

    /// Only corrections of this currency.
    @Field(QuestionField(name: "currency", kind: .currency, help: "Only corrections of this currency."))
    public var currency: CurrencyCode?
    /// Only corrections of rates of this day or later.
    @Field(QuestionField(name: "since", kind: .day, help: "Only corrections of rates of this day or later."))
    public var since: CalendarDay?

    public init() {}

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<CorrectionList> {
        Answered(
            CorrectionList(
                try queries.corrections(currency: currency, since: since), currency: currency?.text, since: since))
    }
}
