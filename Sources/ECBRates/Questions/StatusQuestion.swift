import Foundation

/// `status`: what the store holds, its last import, and whether it is up to date.
public struct StatusQuestion: Question {
    public static let name = "status"
    public static let title = "The store's state"
    public static let summary = """
        What the store holds, how far behind it is, its holes, its history's coverage and its last import.
        """
    public static let abstract = "Show what the store holds, its last import, and whether it is up to date."
    public static let discussion: String? = """
        Up to date means the store has the rates of every TARGET business day whose rates are out
        (around 16:00 CET), and no hole: no business day without rates between its first and newest
        days. Complete history means it begins where its history should: on the ECB's first day
        (1999-01-04), or on the day an 'import --from' asked for. With --max-age-days, the command
        exits 1, naming each reason, when the newest stored day is more days older than the newest day
        due, when the store has a hole, or when its history is incomplete: for monitoring a cron job.
        """
    public static var answerSchema: JSONText { AnswerSchema.status }
    /// It names the store's file and how it was chosen, and ages with the clock.
    public static var isCacheable: Bool { false }

    public init() {}

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<StoreStatus> {
        var status = try queries.status()
        status.store = context.store?.path ?? ""
        status.storeLocation = context.storeLocation
        return Answered(status)
    }
}
