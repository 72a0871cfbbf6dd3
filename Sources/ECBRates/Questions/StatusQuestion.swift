import Foundation

/// `status`: what the store holds, its last import, and whether it is up to date.
public struct StatusQuestion: Question {
    public static let name = "status"
    public static let title = "The store's state"
    public static let summary = """
        What the store holds, how far behind it is, its holes, its history's coverage and its last import.
        """
    public static let fields: [QuestionField] = []
    public static var answerSchema: JSONText { AnswerSchema.status }
    /// It names the store's file and how it was chosen, and ages with the clock.
    public static var isCacheable: Bool { false }

    public init(_ input: QuestionInput) {}

    public func answer(_ queries: RateQueries, context: QuestionContext) throws -> Answered<StoreStatus> {
        var status = try queries.status()
        status.store = context.store?.path ?? ""
        status.storeLocation = context.storeLocation
        return Answered(status)
    }
}
